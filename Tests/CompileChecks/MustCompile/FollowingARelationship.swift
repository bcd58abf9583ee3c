// Following a relationship in everyday code: a main-actor view model that shows the name of the
// current project of the current document, renames it through the follower, and a background
// service that follows an optional selection.
import Messaging

final class Project: Equatable, Sendable {
    let name: Var<String>

    init(name: String) {
        self.name = Var(name)
    }

    static func == (lhs: Project, rhs: Project) -> Bool { lhs === rhs }
}

final class Document: Equatable, Sendable {
    let currentProject: Var<Project>

    init(project: Project) {
        currentProject = Var(project)
    }

    static func == (lhs: Document, rhs: Document) -> Bool { lhs === rhs }
}

@MainActor final class ProjectTitleViewModel: MainActorObserver {
    let receiver = Receiver()
    let projectName: Followed<Followed<Var<Document>, Var<Project>, Update<Project>>, Var<String>, Update<String>>
    private(set) var title = ""

    init(document: Var<Document>) {
        projectName = document.follow(\.currentProject).follow(\.name)
        observe(projectName, replayingLatest: true) { update in self.title = update.new }
    }

    func rename(to name: String) {
        projectName.set(name, as: self)
    }
}

final class SelectionService: Observer, Sendable {
    let receiver = Receiver()
    let selectedName: Followed<Var<Project?>, Var<String>, Update<String?>>
    let shownName = Var<String?>(nil)

    init(selection: Var<Project?>) {
        selectedName = selection.follow(\.name)
        observe(selectedName) { update in self.shownName.value = update.new }
    }

    func renameSelection(to name: String) -> Bool {
        selectedName.set(name)
    }
}

func followExamples() {
    let names = Messenger<Var<String>>()
    let latestName = names.cache().unwrap(Var("")).switchToLatest()
    let lead = Var(Project(name: "Lead"))
    let leadName = lead.follow { project in project.name }
    let token = latestName.subscribe { update in print(update.new) }
    _ = (token, leadName.latestMessage)
}
