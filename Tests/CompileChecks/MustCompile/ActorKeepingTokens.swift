// An actor that keeps tokens instead of conforming to `ActorObserver`: its handlers are isolated
// to it and use its state directly.
import Messaging

actor UploadQueue {
    private var pending: [String] = []
    private var failures = 0
    private var tokens: [ObservationToken] = []
    private let bag = ObservationBag()

    func connect(requests: Messenger<String>, failures failed: Messenger<String>, limit: Var<Int>) {
        tokens.append(
            requests.subscribeIsolated { path in
                self.pending.append(path)  // actor state, no `await`
            })
        bag += failed.subscribeIsolated { _ in
            self.failures += 1
        }
        bag += limit.subscribeIsolated(replayingLatest: true) { update in
            self.pending = Array(self.pending.prefix(update.new))
        }
    }

    func disconnect() {
        tokens.removeAll()
        bag.removeAll()
    }

    var summary: String { "\(pending.count) pending, \(failures) failed" }
}

func upload() async {
    let requests = Messenger<String>()
    let failed = Messenger<String>()
    let limit = Var(10)
    let queue = UploadQueue()
    await queue.connect(requests: requests, failures: failed, limit: limit)
    requests.send("a.jpg")
    failed.send("b.jpg")
    await waitForPendingDeliveries()
    print(await queue.summary)
    await queue.disconnect()
}
