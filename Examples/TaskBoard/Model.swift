import Messaging

/// One task on the board.
struct TaskItem: Sendable, Equatable {
    let id: Int
    let title: String
    var isDone = false
}

/// What the store tells its observers.
enum TaskEvent: Sendable, CustomStringConvertible {
    case added(TaskItem)
    case completed(TaskItem)
    case removed(TaskItem)

    var description: String {
        switch self {
        case .added(let task): "added #\(task.id) \"\(task.title)\""
        case .completed(let task): "completed #\(task.id) \"\(task.title)\""
        case .removed(let task): "removed #\(task.id) \"\(task.title)\""
        }
    }
}

/// Which tasks the board shows.
enum TaskFilter: String, Sendable {
    case all
    case open
    case done

    func shows(_ task: TaskItem) -> Bool {
        switch self {
        case .all: true
        case .open: !task.isDone
        case .done: task.isDone
        }
    }
}

/// The model: the list of tasks, a shared filter, and a counter.
///
/// A custom observable with an event enum: it owns a messenger and sends a `TaskEvent` for every
/// change, naming the object that asked for the change as its author. It lives on the main actor,
/// like the screens it feeds; its messenger and its variables are `Sendable`, so observers
/// anywhere may observe them.
final class TaskStore: ObservableSource, MainActorObserver {
    let receiver = Receiver()
    let messenger = Messenger<TaskEvent>()

    /// Which tasks the board shows. Anybody may change it, naming themselves as the author.
    let filter = Var(TaskFilter.all)

    /// How many tasks are still open. Only the store changes it.
    let openCount = Var(0)

    private(set) var tasks: [TaskItem] = []
    private var nextID = 1
    private var appliedBatches = 0
    private var batchWaiters: [(batch: Int, continuation: CheckedContinuation<Void, Never>)] = []

    @discardableResult
    func add(_ title: String, by author: AnyObject) -> TaskItem {
        let task = TaskItem(id: nextID, title: title)
        nextID += 1
        tasks.append(task)
        send(.added(task), from: author)
        updateOpenCount()
        return task
    }

    func complete(_ id: Int, by author: AnyObject) {
        guard let index = tasks.firstIndex(where: { $0.id == id }), !tasks[index].isDone else { return }
        tasks[index].isDone = true
        send(.completed(tasks[index]), from: author)
        updateOpenCount()
    }

    func remove(_ id: Int, by author: AnyObject) {
        guard let index = tasks.firstIndex(where: { $0.id == id }) else { return }
        let task = tasks.remove(at: index)
        send(.removed(task), from: author)
        updateOpenCount()
    }

    /// Applies the changes that `sync` receives from the server, in the order it receives them.
    ///
    /// The store is a `MainActorObserver`, so the handler runs on the main actor, although the
    /// service sends from a background task: each change waits in the main actor's queue until
    /// the main actor takes it, in the order it was sent.
    func connect(to sync: SyncService) {
        // Weak captures: the service's messenger keeps this handler alive, so a strong `sync`
        // would keep the service alive through its own messenger, and a strong `self` the store.
        observe(sync.changes) { [weak self, weak sync] change in
            guard let self, let sync else { return }
            self.apply(change, from: sync)
        }
    }

    /// Suspends until the changes of `batch` (counted from 1) have all been applied.
    func waitUntilApplied(batch: Int) async {
        guard appliedBatches < batch else { return }
        await withCheckedContinuation { continuation in
            batchWaiters.append((batch, continuation))
        }
    }

    private func apply(_ change: RemoteChange, from sync: SyncService) {
        switch change {
        case .add(let title):
            add(title, by: sync)
        case .complete(let title):
            guard let task = tasks.first(where: { $0.title == title }) else { return }
            complete(task.id, by: sync)
        case .endOfBatch:
            appliedBatches += 1
            let ready = batchWaiters.filter { $0.batch <= appliedBatches }
            batchWaiters.removeAll { $0.batch <= appliedBatches }
            for waiter in ready { waiter.continuation.resume() }
        }
    }

    private func updateOpenCount() {
        // `set(_:as:)` rather than `value =`: it knows it is called on the main actor, so the
        // main-actor observers of the counter run before it returns. A property setter cannot
        // know its caller's actor.
        openCount.set(tasks.count { !$0.isDone }, as: self)
    }
}
