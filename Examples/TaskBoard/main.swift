// TaskBoard: a task list with a model, a main-actor view model, a background sync, and observers
// that come and go.
//
// The board, the panel and the store are `MainActorObserver`s: their handlers run on the main
// actor and use its state directly. Messages sent on the main actor reach them before `send`
// returns; the changes that the sync service sends from a background task wait in the main
// actor's queue until the main actor takes them, in order. The feed's tokens take `@Sendable`
// handlers, which run wherever the message is delivered. The program awaits the background work
// before it ends, so the output is always the same.

import Messaging

/// Stands for the keyboard: a second author, besides the board, that changes the filter.
final class KeyboardShortcut {}

func observations(of store: TaskStore) -> String {
    let count = store.messenger.observationCount
    return count == 1 ? "1 observation" : "\(count) observations"
}

let store = TaskStore()
let board = BoardViewModel(store: store)
let keyboard = KeyboardShortcut()
let sync = SyncService()

print("== Opening the board")
print("The board observes the store, its filter and its open count: \(board.subscriptions.count) observables")
print("The store has \(observations(of: store))")
board.printBoard()

print("\n== The activity feed opens: two tokens, kept in a bag")
let feed = ObservationBag()
feed += store.subscribe { event in
    print("  feed: \(event)")
}
feed += store.openCount.subscribe { update in
    print("  feed: open tasks \(update)")
}
print("The feed holds \(feed.count) tokens; the store has \(observations(of: store))")

print("\n== The user adds two tasks on the board")
board.addTask("Buy milk")
board.addTask("Write the report")
board.printBoard()

print("\n== A detail panel opens, the task is ticked off, the panel closes")
var panel: DetailPanel? = store.tasks.last.map { DetailPanel(showing: $0, in: store) }
print("The store has \(observations(of: store))")
board.completeTask(2)
panel = nil
print("The store has \(observations(of: store))")

print("\n== The filter: the board changes it, then a keyboard shortcut does")
board.show(.open)
store.filter.set(.done, as: keyboard)
board.printBoard()
store.filter.set(.all, as: keyboard)

print("\n== The feed closes: emptying the bag ends both tokens")
feed.removeAll()
print("The feed holds \(feed.count) tokens; the store has \(observations(of: store))")

print("\n== Sync: a background task sends three changes from the server")
store.connect(to: sync)
store.observedOnce { event in
    print("  once: the first change after connecting: \(event)")
}
let download = sync.download([
    .add(title: "Call the plumber"),
    .complete(title: "Buy milk"),
    .add(title: "Book the flights"),
])
await download.value
await store.waitUntilApplied(batch: 1)
print("Every change was applied on the main actor, in the order it was sent")
board.printBoard()

print("\n== The status bar: a combined, mapped line, a for-await loop and a promise")
let status = StatusBar(store: store)
let target = store.openCount.value + 1
let following = Task { await status.follow(store.openCount.values, until: target) }
store.add("Plan the trip", by: keyboard)
let seen = await following.value
print("  status: the loop saw the open count reach \(target), in \(seen) value\(seen == 1 ? "" : "s")")
store.filter.set(.open, as: keyboard)
await status.upload(store.tasks, with: sync)
store.filter.set(.all, as: keyboard)

print("\n== Stopping")
board.stopObserving(store.filter)
print("The board observes the filter: \(board.isObserving(store.filter))")
store.stopBeingObserved()
print("The store has \(observations(of: store)); the board observes the store: \(board.isObserving(store))")
print("The board still follows \(board.subscriptions.count) observable: the open count")
print("A new task now changes the board's count of open tasks, but not its list:")
store.add("Water the plants", by: keyboard)
board.printBoard()
