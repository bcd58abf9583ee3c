import Messaging

/// The board screen's view model: it keeps its own rendered state and updates it from the store.
///
/// A `MainActorObserver`: it lives on the main actor, and so do the handlers it registers, which
/// may use its state directly. Each runs on the main actor, whichever thread the message was sent
/// from. The handlers receive the view model (`observeWeakly`) or capture it weakly: the store's
/// messengers keep them alive, and a strong capture would keep the view model alive with them.
final class BoardViewModel: MainActorObserver {
    let receiver = Receiver()

    private let store: TaskStore
    private var tasks: [TaskItem]
    private var filter: TaskFilter
    private var openCount: Int

    init(store: TaskStore) {
        self.store = store
        tasks = store.tasks
        filter = store.filter.value
        openCount = store.openCount.value

        observe(store) { [weak self] event, author in
            guard let self else { return }
            guard author !== self else {
                print("  board: skips its own edit (\(event)): it is on screen already")
                return
            }
            self.apply(event)
            print("  board: \(event), by \(describe(author))")
        }
        observe(store.filter) { [weak self] update, author in
            guard let self else { return }
            guard author !== self else {
                print("  board: skips its own change of the filter (\(update))")
                return
            }
            self.filter = update.new
            print("  board: filter \(update), by \(describe(author))")
        }
        observeWeakly(store.openCount) { board, update in
            board.openCount = update.new
        }
    }

    /// The user types a new task. The board shows it straight away and skips the store's
    /// message about it, which names the board as its author.
    func addTask(_ title: String) {
        let task = store.add(title, by: self)
        tasks.append(task)
        print("  board: shows #\(task.id) \"\(title)\", added on the board itself")
    }

    /// The user ticks a task off.
    func completeTask(_ id: Int) {
        store.complete(id, by: self)
        if let index = tasks.firstIndex(where: { $0.id == id }) {
            tasks[index].isDone = true
            print("  board: ticks off #\(id) itself")
        }
    }

    /// The user picks a filter on the board.
    func show(_ filter: TaskFilter) {
        self.filter = filter
        store.filter.set(filter, as: self)
    }

    func printBoard() {
        let shown = tasks.filter { filter.shows($0) }
        print("  +-- board: \(filter) tasks, \(openCount) open")
        if shown.isEmpty {
            print("  |   (nothing to show)")
        }
        for task in shown {
            print("  |   [\(task.isDone ? "x" : " ")] #\(task.id) \(task.title)")
        }
        print("  +--")
    }

    private func apply(_ event: TaskEvent) {
        switch event {
        case .added(let task):
            tasks.append(task)
        case .completed(let task):
            if let index = tasks.firstIndex(where: { $0.id == task.id }) {
                tasks[index] = task
            }
        case .removed(let task):
            tasks.removeAll { $0.id == task.id }
        }
    }
}

/// A panel that shows one task while it is open. It observes the store for as long as it lives.
final class DetailPanel: MainActorObserver {
    let receiver = Receiver()
    let taskID: Int

    init(showing task: TaskItem, in store: TaskStore) {
        taskID = task.id
        print("  panel: opens on #\(task.id) \"\(task.title)\"")
        observeWeakly(store) { panel, event in
            panel.handle(event)
        }
    }

    deinit {
        print("  panel: closed; its receiver ends its observation of the store")
    }

    private func handle(_ event: TaskEvent) {
        switch event {
        case .completed(let task) where task.id == taskID:
            print("  panel: shows #\(taskID) as done")
        case .removed(let task) where task.id == taskID:
            print("  panel: #\(taskID) was removed")
        default:
            break
        }
    }
}

/// The name of an author, for the output.
func describe(_ author: AnyObject) -> String {
    switch author {
    case is BoardViewModel: "the board"
    case is TaskStore: "the store"
    case is SyncService: "the sync service"
    case is KeyboardShortcut: "a keyboard shortcut"
    default: "the \(String(describing: type(of: author)))"
    }
}
