import Testing

@testable import Messaging

/// `scan(_:_:)`: a running state, kept per observation.
@Suite("Chain scan: a running state, per observation, on every chain type")
struct ChainScanTests {
    @Test("scan sends each new state on, in both forms; each observation has its own state")
    func scanKeepsARunningStatePerObservation() {
        let source = Messenger<Int>()
        let observers = [FreeObserver(), FreeObserver()]
        let log = EventLog()
        let chain = observers[0].observe(source).scan(0) { total, number in total + number }
        chain.receive { log.append("first \($0)") }
        source.send(1)
        observers[1].observe(source).scan("") { text, number in
            text + "\(number)"
        } receive: {
            log.append("second \($0)")
        }
        source.send(2)
        source.send(3)
        #expect(log.take() == ["first 1", "first 3", "second 2", "first 6", "second 23"])
        withExtendedLifetime(observers) {}
    }

    @Test("scan in a main-actor observer's chain and after hops to the main actor and an actor")
    @MainActor
    func scanOnActors() async {
        @MainActor final class Screen: MainActorObserver {
            let receiver = Receiver()
            var totals: [Int] = []

            func start(_ source: Messenger<Int>) {
                observe(source).scan(100) { total, number in
                    total - number
                } receive: {
                    self.totals.append($0)
                }
            }
        }
        let source = Messenger<Int>()
        let screen = Screen()
        screen.start(source)
        let observer = FreeObserver()
        let log = MainActorLog()
        let target = HopTarget()
        observer.observe(source).onMainActor().scan([Int]()) { list, number in list + [number] }.receive {
            log.append("\($0)")
        }
        observer.observe(source).on(target).scan(1) { _, product, number in
            product * number
        } receive: {
            target, product in
            target.append("\(product)")
        }
        for number in [2, 3, 4] { source.send(number) }
        await waitForPendingDeliveries()
        #expect(screen.totals == [98, 95, 91])
        #expect(log.entries == ["[2]", "[2, 3]", "[2, 3, 4]"])
        #expect(await target.entries == ["2", "6", "24"])
        withExtendedLifetime(observer) {}
    }
}
