// The SwiftySignals examples of the migration article (MigratingToMessaging.md, "From
// SwiftySignals"), compiled as the article shows them, with `print` writing to a log, and checked
// against what its text says they do.
//
// Swift 6: handlers are `@Sendable`, so `print` and `record` are `@Sendable` functions that write to
// a thread-safe `EventLog`, and the tests record into an `EventLog` or `Locked` value rather than
// into a captured `var`.

import Messaging
import Testing

@Suite("SwiftySignals' code, ported as the migration article shows")
struct SwiftySignalsMigrationTests {
    /// `.then(call: ViewController.update, on: self)`, ported.
    // Swift 6: `Sendable`, with its state in a `Locked`, because the handler captures it.
    final class ViewController: Observer, Sendable {
        let receiver = Receiver()
        var shown: [Int] { _shown.value }
        private let _shown = Locked([Int]())

        func update(value: Int) {
            _shown.withLock { $0.append(value) }
        }
    }

    @Test("a Property's didSet.then becomes a token in an ObservationBag; nothing is sent on subscribing")
    func propertyBecomesVariable() {
        let printed = EventLog()
        @Sendable func print(_ line: String) { printed.append(line) }

        let number = Var(0)
        let observations = ObservationBag()
        observations += number.subscribe { print("Value changed to \($0.new)") }

        for _ in 0..<3 {
            number.value += 1
        }
        number.value = 3  // a Property would send 3 again; a variable sends only changes

        #expect(printed.entries == ["Value changed to 1", "Value changed to 2", "Value changed to 3"])
        withExtendedLifetime(observations) {}
    }

    @Test("a chain of filter, map, then, then becomes one handler that does every step in order")
    func chainBecomesOneHandler() {
        let steps = EventLog()
        @Sendable func print(_ value: Int) { steps.append("print:\(value)") }
        @Sendable func record(_ value: Int) { steps.append("record:\(value)") }

        let number = Var(0)
        let observations = ObservationBag()
        observations += number.subscribe { update in
            guard update.new >= 100 else { return }
            let doubled = 2 * update.new
            print(doubled)
            record(doubled)
        }

        number.value = 50
        number.value = 100
        number.value = 120

        #expect(steps.entries == ["print:200", "record:200", "print:240", "record:240"])
        withExtendedLifetime(observations) {}
    }

    @Test("a chain of independent steps becomes one observation per step, called in the order they started")
    func chainBecomesOneObservationPerStep() {
        let steps = EventLog()
        @Sendable func print(_ value: Int) { steps.append("print:\(value)") }
        @Sendable func record(_ value: Int) { steps.append("record:\(value)") }

        let number = Var(0)
        let observations = ObservationBag()
        observations += number.subscribe { print($0.new) }
        observations += number.subscribe { record($0.new) }

        number.value = 1
        number.value = 2

        #expect(steps.entries == ["print:1", "record:1", "print:2", "record:2"])
        withExtendedLifetime(observations) {}
    }

    @Test("a step observed on its own can be ended on its own")
    func oneStepEndsAlone() {
        let steps = EventLog()
        let number = Var(0)
        let printing = number.subscribe { steps.append("print:\($0.new)") }
        let recording = number.subscribe { steps.append("record:\($0.new)") }

        number.value = 1
        recording.stopObserving()
        number.value = 2

        #expect(steps.entries == ["print:1", "record:1", "print:2"])
        withExtendedLifetime(printing) {}
    }

    @Test("then(call:on:) becomes a handler that captures the object weakly and calls its method")
    func thenCallOnBecomesWeakCapture() {
        let property = Var(56)
        weak var released: ViewController?
        do {
            let object = ViewController()
            released = object
            object.observe(property) { [weak object] in object?.update(value: $0.new) }
            property.value = 67
            #expect(object.shown == [67])
        }
        #expect(released == nil)
        property.value = 68
        #expect(property.messenger.observationCount == 0)
    }

    @Test("fire(with:) becomes send: a Signal is a Messenger, and each send reaches the handler")
    func signalBecomesMessenger() {
        let signal = Messenger<Int>()
        let fired = Locked([Int]())
        let observations = ObservationBag()
        observations += signal.subscribe { message in fired.withLock { $0.append(message) } }

        signal.send(20)
        signal.send(20)

        #expect(fired.value == [20, 20])
        withExtendedLifetime(observations) {}
    }

    @Test("a chain of filter, map, then, then becomes a transform chain of a free observer kept in a bag")
    func chainBecomesATransformChain() {
        let number = Var(0)
        let observations = ObservationBag()
        let log = EventLog()
        let doubling = FreeObserver()
        doubling.observe(number).new().filter { $0 >= 100 }.map { 2 * $0 }.receive {
            log.append("print \($0)")
            log.append("record \($0)")
        }
        observations += doubling
        number.value = 50
        number.value = 120
        #expect(log.take() == ["print 240", "record 240"])
        observations.removeAll()
        number.value = 130
        #expect(log.take().isEmpty)
        #expect(number.messenger.observationCount == 0)
    }
}
