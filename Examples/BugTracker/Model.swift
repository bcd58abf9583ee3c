import Messaging

/// An issue: a value, so that closing or reassigning it replaces it in its project's array, and
/// every count that depends on it follows that one replacement.
struct Issue: Hashable, Sendable, CustomStringConvertible {
    let identifier: String
    var owner: String
    var isOpen: Bool
    /// The day the issue was filed, counted from the project's start.
    let created: Int

    var description: String { "\(identifier) (\(owner), \(isOpen ? "open" : "closed"))" }
}

/// A project: its name can change, and its issues are an observable array.
final class Project: Sendable, Equatable, CustomStringConvertible {
    let name: Var<String>
    let issues: ObservableArray<Issue>
    /// Who follows the project: an observable set.
    let watchers: ObservableSet<String>

    init(name: String, issues: [Issue] = [], watchers: Set<String> = []) {
        self.name = Var(name)
        self.issues = ObservableArray(issues)
        self.watchers = ObservableSet(watchers)
    }

    /// Projects are the same project only if they are the same object.
    static func == (lhs: Project, rhs: Project) -> Bool { lhs === rhs }

    var description: String { name.value }
}

/// The document: its projects, and the one the user looks at.
final class Document: Sendable {
    let projects: ObservableArray<Project>
    let currentProject: Var<Project>

    init(projects: [Project]) {
        precondition(!projects.isEmpty, "Document: a document has at least one project")
        self.projects = ObservableArray(projects)
        currentProject = Var(projects[0])
    }

    /// Closes the issue with this identifier in the current project: one replacement.
    func close(_ identifier: String) {
        let issues = currentProject.value.issues
        issues.modify { issues in
            guard let index = issues.firstIndex(where: { $0.identifier == identifier }) else { return }
            issues[index].isOpen = false
        }
    }
}

/// An issue as GlueKit's README models it: a reference whose open flag is observable of its own,
/// so closing it changes the flag, not the array that holds the issue.
final class TrackedIssue: Sendable {
    let identifier: String
    let isOpen: Var<Bool>

    init(_ identifier: String, isOpen: Bool) {
        self.identifier = identifier
        self.isOpen = Var(isOpen)
    }
}
