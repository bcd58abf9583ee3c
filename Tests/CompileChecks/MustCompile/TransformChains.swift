// Everyday transform chains: a main-actor view model that uses its own state in its chain, a
// background observer with `@Sendable` stages, and SwiftObserver's title example.
import Messaging

@MainActor final class TitleViewModel: MainActorObserver {
    let receiver = Receiver()
    private(set) var titleLength = 0
    private var prefix = "Title: "

    init(title: Var<String?>) {
        observe(title).new().unwrap("Untitled").map {
            self.prefix + $0
        } receive: { text in
            self.titleLength = text.count
        }
    }
}

final class Logger: Observer, Sendable {
    let receiver = Receiver()
    let lines = Var<[String]>([])

    func start(_ numbers: Messenger<Int>) {
        observe(numbers).map { "\($0)" }.filter { $0.count > 1 }.map { Int($0) }.unwrap { number in
            self.lines.modify { $0.append("\(number)") }
        }
    }
}

actor Tally: ActorObserver {
    let receiver = Receiver()
    private var total = 0

    func start(_ numbers: Messenger<Int>) {
        observe(numbers).filter { $0 > 0 }.distinct().receive { self.total += $0 }
    }
}
