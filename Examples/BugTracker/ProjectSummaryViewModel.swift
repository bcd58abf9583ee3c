import Messaging

/// How many issues a project has, and how many of them are open: one fold, so that the two
/// numbers always change together.
struct IssueCounts: Equatable, Sendable {
    var all = 0
    var open = 0

    /// The open issues in percentage points of all issues (0 without issues).
    var percentageOpen: Int { all == 0 ? 0 : open * 100 / all }

    func adding(_ issue: Issue) -> IssueCounts {
        IssueCounts(all: all + 1, open: open + (issue.isOpen ? 1 : 0))
    }

    func removing(_ issue: Issue) -> IssueCounts {
        IssueCounts(all: all - 1, open: open - (issue.isOpen ? 1 : 0))
    }
}

extension Project {
    /// The project's issue counts, updated per change of its issues: closing one issue costs two
    /// calls, whatever the number of issues.
    var issueCounts: ArrayFold<Issue, IssueCounts> {
        issues.fold(IssueCounts(), adding: { $0.adding($1) }, removing: { $0.removing($1) })
    }
}

/// What a project summary screen shows of the current project, every field observable and kept up
/// to date: when an issue is filed, closed or reopened, when the project is renamed, and when the
/// user selects another project.
///
/// Each field follows the current project: when the selection changes, its observation moves to
/// the new project's variable or array, and it reports the switch as one update. A field made of
/// several numbers comes from one fold, and the summary line from one combination per project, so
/// that no observer ever sees a mix of two projects, or an open count from after an edit with an
/// issue count from before it.
final class ProjectSummaryViewModel: Sendable {
    /// The current project's name; setting it renames the current project.
    let projectName: Followed<Var<Project>, Var<String>, Update<String>>
    /// The current project's issue counts.
    let issueCounts: Followed<Var<Project>, ArrayFold<Issue, IssueCounts>, Update<IssueCounts>>
    /// The line a label would show.
    let summary: Followed<Var<Project>, Summary, Update<String>>

    /// One project's summary line, from its name and its counts.
    typealias Summary = Mapped<CombinedLatest<Var<String>, ArrayFold<Issue, IssueCounts>>, Update<String>>

    init(document: Document) {
        projectName = document.currentProject.follow(\.name)
        issueCounts = document.currentProject.follow(\.issueCounts)
        summary = document.currentProject.follow { project in
            combineLatest(project.name, project.issueCounts).map { name, counts in
                Update(Self.line(name.old, counts.old), Self.line(name.new, counts.new))
            }
        }
    }

    /// The open issues in percentage points of all issues: a transform of the counts.
    var percentageOfOpenIssues: some ObservableSource<Int> {
        issueCounts.map { $0.new.percentageOpen }
    }

    static func line(_ name: String, _ counts: IssueCounts) -> String {
        "\(name): \(counts.open) of \(counts.all) issues open (\(counts.percentageOpen)%)"
    }
}
