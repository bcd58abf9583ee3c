// BugTracker: the model of a bug-tracking app (a document with projects, each with issues), and
// a summary of the current project whose every field stays up to date as issues are filed,
// closed and reassigned, as the project is renamed, and as the user selects another project.
//
// Everything runs on one thread, so each handler runs before the edit that triggers it returns
// and the output is always the same.

import Messaging

let engine = Project(
    name: "Engine",
    issues: [
        Issue(identifier: "E-1", owner: "ann", isOpen: true, created: 1),
        Issue(identifier: "E-2", owner: "bob", isOpen: false, created: 2),
        Issue(identifier: "E-3", owner: "ann", isOpen: true, created: 4),
    ],
    watchers: ["ann", "bob"]
)
let website = Project(
    name: "Website",
    issues: [Issue(identifier: "W-1", owner: "cem", isOpen: true, created: 3)],
    watchers: ["cem"]
)
let document = Document(projects: [engine, website])
let viewModel = ProjectSummaryViewModel(document: document)
let bag = ObservationBag()

print("== The summary screen appears")
// The label starts with the current summary, then follows every change.
viewModel.summary.subscribe(replayingLatest: true) { line in print("label:", line.new) }.store(in: bag)
viewModel.percentageOfOpenIssues.subscribe { percent in print("  gauge:", percent, "%") }.store(in: bag)

// The array's own changes say exactly what moved: a list view applies them to its rows, here on
// the main actor (a handler made with subscribeIsolated runs on the caller's actor).
var rows = engine.issues.value
engine.issues.subscribeIsolated { change in
    change.apply(to: &rows)
    print("  rows of Engine:", rows.map(\.identifier), "after", change.modifications.count, "modification(s)")
}.store(in: bag)

print("\n== Closing E-1")
document.close("E-1")

print("\n== Filing three issues in one transaction: one change, one summary")
engine.issues.withTransaction {
    for day in 5...7 {
        engine.issues.append(Issue(identifier: "E-\(day - 1)", owner: "dan", isOpen: true, created: day))
    }
}

print("\n== Reassigning E-3: the open count does not change, so the summary says nothing")
engine.issues.modify { issues in issues[2].owner = "bob" }

print("\n== Renaming the project through the summary (a two-way mapping)")
viewModel.projectName.set("Engine 2")
print("the project is now called", engine.name.value)

print("\n== Selecting the Website project")
document.currentProject.value = website

print("\n== Editing Engine, no longer selected: the summary stays quiet")
engine.issues.append(Issue(identifier: "E-7", owner: "ann", isOpen: true, created: 8))

print("\n== Closing W-1")
document.close("W-1")

print("\n== Watchers are an observable set")
let watchers = website.watchers.observableCount
watchers.subscribe { update in print("  watchers of Website:", update.old, "→", update.new) }.store(in: bag)
website.watchers.insert("ann")
website.watchers.insert("ann")  // already there: nothing to say
website.watchers.remove("cem")

print("\n== Searching Engine's issues by owner: a filter whose parameter is the search field")
let ownerSearch = Var("ann")
let found = engine.issues.filteredElements(matching: ownerSearch) { issue, owner in
    owner.isEmpty || issue.owner == owner
}
var foundRows = found.value
print("  found:", foundRows.map(\.identifier))
found.subscribeIsolated { change in
    change.apply(to: &foundRows)
    print("  found:", foundRows.map(\.identifier), "after", change.modifications.count, "modification(s)")
}.store(in: bag)
ownerSearch.value = "dan"  // one change: ann's issues leave, dan's join
engine.issues.append(Issue(identifier: "E-8", owner: "dan", isOpen: true, created: 9))
ownerSearch.value = ""  // everyone's

print("\n== GlueKit's own formulation: each issue's isOpen is an observable of its own")
let tracked = ObservableArray([TrackedIssue("T-1", isOpen: true), TrackedIssue("T-2", isOpen: false)])
// The filter follows each issue's flag; an expression observes its count with the array's count
// in one step, so filing an open issue moves both numbers at once.
let openTracked = ObservableExpression(tracked.filteredElements(by: \.isOpen).observableCount)
let allTracked = ObservableExpression(tracked.observableCount)
let trackedShare = openTracked.multiplied(by: 100).divided(by: allTracked, ifZero: 0)
print("  open:", trackedShare.value, "%")
trackedShare.subscribe { update in print("  open:", update.old, "→", update.new, "%") }.store(in: bag)
tracked.append(TrackedIssue("T-3", isOpen: true))  // both counts change: one update, 50 → 66
tracked[1].isOpen.value = true  // only the open count changes: 66 → 100

print("\n== Aggregates of all projects")
// Read while nothing observes them, folds count the current contents.
for project in document.projects.value {
    print(ProjectSummaryViewModel.line(project.name.value, project.issueCounts.value))
}
