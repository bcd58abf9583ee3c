// Hops in ad hoc chains: a background observer whose chain ends on the main actor and updates a
// view model there, and one whose chain ends on an actor, or on an actor with an executor of its
// own.
import Dispatch
import Messaging

@MainActor final class StatusViewModel {
    private(set) var status = ""

    func show(_ text: String) {
        status = text
    }
}

actor Ledger {
    private(set) var total = 0

    func add(_ amount: Int) {
        total += amount
    }
}

final class QueueExecutor: SerialExecutor {
    let queue = DispatchQueue(label: "ledger")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

actor QueueLedger {
    let executor = QueueExecutor()
    private(set) var total = 0

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func add(_ amount: Int) {
        total += amount
    }
}

func connect(
    _ observer: FreeObserver,
    _ amounts: Messenger<Int>,
    _ viewModel: StatusViewModel,
    _ ledger: Ledger,
    _ queueLedger: QueueLedger
) {
    observer.observe(amounts).filter { $0 > 0 }.onMainActor().map { "\($0)" }.receive { text in
        viewModel.show(text)
    }
    observer.observe(amounts).on(ledger).distinct().receive { ledger, amount in
        ledger.add(amount)
    }
    observer.observe(amounts).on(queueLedger).onMainActor().receive { amount in
        viewModel.show("\(amount)")
    }
    observer.observe(amounts).on(queueLedger).receive { ledger, amount in
        ledger.add(amount)
    }
}
