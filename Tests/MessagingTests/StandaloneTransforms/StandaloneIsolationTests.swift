import Messaging
import Testing

@Suite("Standalone transforms: handlers on the sender's actor run before send returns")
struct StandaloneIsolationTests {
    /// An actor that observes standalone transforms, each of a messenger of its own, and sends on
    /// those messengers itself: a transform passes the sender's actor on, so the handler runs at
    /// once. One messenger per transform, so that no other handler's call on the actor runs a
    /// queued call first.
    actor Counter: ActorObserver {
        let receiver = Receiver()
        let mapped = Messenger<Int>()
        let filtered = Messenger<Int>()
        let merged = Messenger<Int>()
        let combined = Messenger<Int>()
        let cached = Messenger<Int>()
        let throttled = Messenger<Int>()
        let flag = Var(true)
        private(set) var seen: [String] = []
        private var kept: [AnyObject] = []

        func start() {
            let tenfold = mapped.map { $0 * 10 }
            let even = filtered.filter { $0.isMultiple(of: 2) }
            let both = merge(merged, Messenger<Int>())
            let pair = combineLatest(combined, flag.new())
            let cache = cached.cache()
            let sampled = throttled.throttle(for: .seconds(3_600))
            kept = [tenfold, even, both, pair, cache, sampled]
            observe(tenfold) { value in self.seen.append("map \(value)") }
            observe(even) { value in self.seen.append("filter \(value)") }
            observe(both) { value in self.seen.append("merge \(value)") }
            observe(pair) { pair in self.seen.append("combine \(pair.0) \(pair.1)") }
            observe(cache) { value in self.seen.append("cache \(value.map(String.init) ?? "nil")") }
            observe(sampled) { value in self.seen.append("throttle \(value)") }
        }

        /// Sends after a suspension, and reports what the handlers had done when `send` returned.
        func send(_ value: Int, on messenger: KeyPath<Counter, Messenger<Int>>) async -> [String] {
            await Task.yield()
            seen = []
            self[keyPath: messenger].send(value)
            return seen
        }
    }

    @Test("map, filter, merge, combineLatest, cache and throttle forward on the actor that sends")
    func transformsKeepTheSendersActor() async {
        let counter = Counter()
        await counter.start()
        #expect(await counter.send(1, on: \.mapped) == ["map 10"])
        #expect(await counter.send(2, on: \.filtered) == ["filter 2"])
        #expect(await counter.send(3, on: \.merged) == ["merge 3"])
        // The flag is a cache: the combination starts with its value.
        #expect(await counter.send(4, on: \.combined) == ["combine 4 true"])
        #expect(await counter.send(5, on: \.cached) == ["cache 5"])
        #expect(await counter.send(6, on: \.throttled) == ["throttle 6"])
    }

    @Test("a main-actor observer of a transform, sent to on the main actor, runs before send returns")
    @MainActor
    func mainActorThroughATransform() async {
        final class Label: MainActorObserver {
            let receiver = Receiver()
            var text = ""
        }
        let count = Var(0)
        let label = Label()
        let description = count.new().map { "\($0) items" }
        label.observe(description) { text in label.text = text }
        await Task.yield()
        count.set(3, as: label)
        #expect(label.text == "3 items")
        withExtendedLifetime(description) {}
    }
}
