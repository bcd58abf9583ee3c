import Messaging

/// The status bar: one line that shows the filter and the open count together.
///
/// The line is a standalone transform of the two variables (`combineLatest`, then `map`), so both
/// always come from one consistent state. Observing it keeps it alive, and `replayingLatest`
/// shows the current line at once. The bar also follows the open count in a `for await` loop, and
/// awaits the promise of an upload.
final class StatusBar: MainActorObserver {
    let receiver = Receiver()
    private(set) var line = ""

    init(store: TaskStore) {
        let summary = combineLatest(store.filter, store.openCount).map { state in
            "showing \(state.0.new) tasks, \(state.1.new) open"
        }
        observe(summary, replayingLatest: true) { [weak self] line in
            self?.line = line
            print("  status: \(line)")
        }
    }

    /// Follows the open count, starting with its current value, until it reaches `target`.
    func follow(_ counts: VariableValues<Int>, until target: Int) async -> Int {
        var changes = 0
        for await count in counts {
            changes += 1
            if count == target { break }
        }
        return changes
    }

    /// Uploads the tasks and shows the result when the promise is fulfilled.
    func upload(_ tasks: [TaskItem], with sync: SyncService) async {
        let sent = await sync.upload(tasks).value
        line = "uploaded \(sent) tasks"
        print("  status: \(line)")
    }
}
