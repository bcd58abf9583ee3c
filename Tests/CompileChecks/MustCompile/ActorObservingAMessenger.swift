// An actor observing a messenger; its handlers use its state, and nothing keeps it alive.
import Messaging

actor DownloadTracker: ActorObserver {
    let receiver = Receiver()
    private var finished: [String] = []
    private var failures = 0

    func start(finishedDownloads: Messenger<String>, failedDownloads: Messenger<String>) {
        observeWeakly(finishedDownloads) { tracker, name in
            tracker.finished.append(name)
        }
        // A handler written in the actor may capture `self` too (it keeps the actor alive
        // while the messenger lives).
        observe(failedDownloads) { _ in
            self.failures += 1
        }
    }

    var summary: String { "\(finished.count) finished, \(failures) failed" }
}

func track() async {
    let finished = Messenger<String>()
    let failed = Messenger<String>()
    let tracker = DownloadTracker()
    await tracker.start(finishedDownloads: finished, failedDownloads: failed)
    finished.send("report.pdf")
    failed.send("photo.jpg")
    await waitForPendingDeliveries()
    print(await tracker.summary)
}
