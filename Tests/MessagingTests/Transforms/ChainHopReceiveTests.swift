import Messaging
import Testing

@Suite("Chain hops: every stage after a hop also ends the chain with a trailing handler")
struct ChainHopReceiveTests {
    /// The messages both tests send.
    static func sendAll(_ numbers: Messenger<Int>, _ count: Var<Int>, _ optionals: Messenger<Int?>) {
        numbers.send(1)
        numbers.send(2)
        numbers.send(2)
        count.value = 5
        optionals.send(nil)
        optionals.send(7)
    }

    /// What the handlers of both tests log, in order: each message reaches the observations in
    /// the order they started.
    static let expected = [
        "map 10", "distinct 1",
        "map 20", "filter 2", "compactMap 2", "distinct 2", "discard 2",
        "map 20", "filter 2", "compactMap 2", "discard 2",
        "new 5",
        "unwrap(0) 0",
        "unwrap 7", "unwrap(0) 7",
    ]

    @Test("On the main actor: map, filter, compactMap, new, unwrap, distinct, discard, each with a handler")
    @MainActor
    func mainActorStagesTakeTheHandler() {
        let numbers = Messenger<Int>()
        let optionals = Messenger<Int?>()
        let count = Var(0)
        let observer = FreeObserver()
        let log = MainActorLog()
        observer.observe(numbers).onMainActor().map {
            $0 * 10
        } receive: {
            log.append("map \($0)")
        }
        observer.observe(numbers).onMainActor().filter {
            $0 > 1
        } receive: {
            log.append("filter \($0)")
        }
        observer.observe(numbers).onMainActor().compactMap {
            $0 == 1 ? nil : "\($0)"
        } receive: {
            log.append("compactMap \($0)")
        }
        observer.observe(count).onMainActor().new { log.append("new \($0)") }
        observer.observe(optionals).onMainActor().unwrap { log.append("unwrap \($0)") }
        observer.observe(optionals).onMainActor().unwrap(0) { log.append("unwrap(0) \($0)") }
        observer.observe(numbers).onMainActor().distinct { log.append("distinct \($0)") }
        observer.observe(numbers).onMainActor().discard(first: 1) { log.append("discard \($0)") }

        Self.sendAll(numbers, count, optionals)

        #expect(log.entries == Self.expected)
        withExtendedLifetime(observer) {}
    }

    @Test("On an actor: map, filter, compactMap, new, unwrap, distinct, discard, each with a handler")
    func actorStagesTakeTheHandler() async {
        let numbers = Messenger<Int>()
        let optionals = Messenger<Int?>()
        let count = Var(0)
        let observer = FreeObserver()
        let target = HopTarget()
        observer.observe(numbers).on(target).map { _, value in
            value * 10
        } receive: { target, value in
            target.append("map \(value)")
        }
        observer.observe(numbers).on(target).filter { _, value in
            value > 1
        } receive: { target, value in
            target.append("filter \(value)")
        }
        observer.observe(numbers).on(target).compactMap { _, value in
            value == 1 ? nil : "\(value)"
        } receive: { target, text in
            target.append("compactMap \(text)")
        }
        observer.observe(count).on(target).new { target, value in target.append("new \(value)") }
        observer.observe(optionals).on(target).unwrap { target, value in target.append("unwrap \(value)") }
        observer.observe(optionals).on(target).unwrap(0) { target, value in target.append("unwrap(0) \(value)") }
        observer.observe(numbers).on(target).distinct { target, value in target.append("distinct \(value)") }
        observer.observe(numbers).on(target).discard(first: 1) { target, value in target.append("discard \(value)") }

        fromAnotherThread { Self.sendAll(numbers, count, optionals) }
        await waitForPendingDeliveries()

        #expect(await target.entries == Self.expected)
        withExtendedLifetime(observer) {}
    }
}
