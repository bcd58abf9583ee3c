// Standalone transforms and combinators in everyday code: a main-actor view model that keeps
// transforms in properties and observes them, a background service with a merge, and the
// SwiftObserver examples of transforms as observables.
import Messaging

@MainActor final class ProfileViewModel: MainActorObserver {
    let receiver = Receiver()
    let titleLength: Mapped<Mapped<Mapped<Var<String?>, String?>, String>, Int>
    let summary: Mapped<CombinedLatest<Mapped<Var<String>, String>, Mapped<Var<Int>, Int>>, String>
    private(set) var shownLength = 0
    private(set) var shownSummary = ""

    init(title: Var<String?>, name: Var<String>, age: Var<Int>) {
        titleLength = title.new().unwrap("Untitled").map { $0.count }
        summary = combineLatest(name.new(), age.new()).map { person in "\(person.0), \(person.1)" }
        shownSummary = summary.latestMessage
        observe(titleLength) { length in self.shownLength = length }
        observe(summary) { text in self.shownSummary = text }
    }

    func useRealTitle(_ title: Var<String?>) {
        titleLength.origin.origin.origin = title
    }
}

final class NoteService: Observer, Sendable {
    let receiver = Receiver()
    let count = Var(0)

    func start(local: Messenger<String>, remote: Messenger<String>, author: AnyObject) {
        let notes = merge(local, remote).notFrom(author).distinct()
        observe(notes) { _ in self.count.modify { $0 += 1 } }
        observe(Var(1).map { $0.new * 2 }) { _ in }
    }
}

func seedExamples() {
    let title = Var<String?>()
    let titleLength = title.new().unwrap("Untitled").map { $0.count }
    FreeObserver.shared.observe(titleLength) { _ in }

    let messenger = Messenger<String>()
    let stringToInt: Mapped<Messenger<String>, Int?> = messenger.map { Int($0) }
    let shortMessages = messenger.filter { $0.count < 10 }
    let myNotifier = messenger.select("my notification")
    FreeObserver.shared.observe(myNotifier) {}
    let errorCodes = Messenger<Int?>()
    let errorAlert = errorCodes.unwrap()
    let pointsToShow = errorCodes.unwrap(0)
    let cached: Cached<Messenger<Int?>, Int> = errorCodes.cache()
    let latest: Int? = cached.latestMessage
    _ = (stringToInt, shortMessages, errorAlert, pointsToShow, latest)
}
