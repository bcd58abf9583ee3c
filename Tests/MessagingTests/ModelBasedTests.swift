import Foundation
import Messaging
import Testing

/// Random sequences of every operation, checked after each step against a reference model of who
/// receives what, in which order.
///
/// Each messenger also has a standalone transform (`map`), observed and left like the messengers
/// themselves, whose origin is replaced when its source dies, and whose observations end with the
/// source's `stopBeingObserved()`: the model says when the transform observes its origin, where
/// that observation stands in the origin's order, and what reaches the transform's observers.
///
/// The steps run on one thread, so every handler runs before `send` returns and the model can say
/// exactly what the log must hold. Set `MESSAGING_MODEL_STEPS` for longer runs.
@Suite("Model: random operations checked against a reference model")
struct ModelBasedTests {
    /// A source that owns its messenger, and can die.
    final class Source: ObservableSource, Sendable {
        let messenger = Messenger<Int>()
    }

    /// What the model knows of one observation.
    struct ModelObservation {
        let id: Int
        let owner: Owner
        /// The messenger's sequence number when the observation started: it receives later ones.
        let firstSequence: Int
        /// Re-sends `value + 1` to messenger `(index + 1) % count` when it receives a multiple of 7.
        let relays: Bool
        /// Made through a transform chain that drops multiples of 3, then repeats (`distinct()`).
        var isChain = false
        /// The last value that passed the chain's `distinct()`.
        var lastPassed: Int? = nil
        /// The standalone transform's observation of its origin: delivering to it sends the
        /// transformed message on the transform.
        var isLink = false
    }

    /// Where a messenger's standalone transform stands with its origin.
    enum LinkState: Equatable {
        /// Not observed, so not observing its origin.
        case unlinked
        /// Observing its origin: the observation with this id.
        case linked(Int)
    }

    /// Who owns an observation.
    enum Owner: Equatable {
        case observer(Int)
        case token(Int)
    }

    /// The reference model: plain arrays, no concurrency, no cleverness.
    ///
    /// Messenger `m` has a standalone transform, `map { $0 * 100 }` of source `m`; its state is at
    /// index `count + m` of the same arrays, so it is sent to like any messenger.
    struct Model {
        let count: Int
        var observations: [[ModelObservation]]
        var sequences: [Int]
        var delivering: [Bool]
        var queues: [[(value: Int, sequence: Int)]]
        var links: [LinkState]
        var nextLinkID = -1
        var log: [String] = []

        init(messengerCount: Int) {
            count = messengerCount
            observations = Array(repeating: [], count: 2 * messengerCount)
            sequences = Array(repeating: 0, count: 2 * messengerCount)
            delivering = Array(repeating: false, count: 2 * messengerCount)
            queues = Array(repeating: [], count: 2 * messengerCount)
            links = Array(repeating: .unlinked, count: messengerCount)
        }

        /// Ends the observations that match, of sources and transforms alike.
        mutating func end(where predicate: (ModelObservation) -> Bool) {
            for index in observations.indices {
                observations[index].removeAll { !$0.isLink && predicate($0) }
            }
            updateLinks()
        }

        /// Adds an observation of messenger `index` (a transform's if `index >= count`).
        mutating func start(_ observation: ModelObservation, on index: Int) {
            observations[index].append(observation)
            updateLinks()
        }

        /// A transform observes its origin while it is observed, and stops when it is not.
        mutating func updateLinks() {
            for source in 0..<count {
                let isObserved = !observations[count + source].isEmpty
                switch links[source] {
                case .unlinked where isObserved:
                    let id = nextLinkID
                    nextLinkID -= 1
                    observations[source].append(
                        ModelObservation(
                            id: id, owner: .token(id), firstSequence: sequences[source], relays: false, isLink: true))
                    links[source] = .linked(id)
                case .linked(let id) where !isObserved:
                    observations[source].removeAll { $0.id == id }
                    links[source] = .unlinked
                default:
                    break
                }
            }
        }

        /// Every observation of source `index` ends, its transform's included; and so, as when
        /// the source dies, do the observations of the transform.
        mutating func sourceStopsBeingObserved(_ index: Int) {
            observations[index] = []
            observations[count + index] = []
            links[index] = .unlinked
        }

        /// Source `index` is replaced by a new one, which its transform observes from then on.
        mutating func replaceSource(_ index: Int) {
            observations[index] = []
            sequences[index] = 0
            links[index] = .unlinked
            updateLinks()
        }

        /// Sends like a messenger: one delivery at a time per messenger, queued first in first out;
        /// a relay to another, idle messenger delivers there at once.
        mutating func send(_ value: Int, on messenger: Int) {
            let sequence = sequences[messenger]
            sequences[messenger] += 1
            if delivering[messenger] {
                queues[messenger].append((value, sequence))
                return
            }
            delivering[messenger] = true
            deliver(value, sequence: sequence, on: messenger)
            while !queues[messenger].isEmpty {
                let next = queues[messenger].removeFirst()
                deliver(next.value, sequence: next.sequence, on: messenger)
            }
            delivering[messenger] = false
        }

        private mutating func deliver(_ value: Int, sequence: Int, on messenger: Int) {
            let recipients = observations[messenger].filter { $0.firstSequence <= sequence }
            for observation in recipients {
                // Ended by an earlier handler of this delivery?
                guard let index = observations[messenger].firstIndex(where: { $0.id == observation.id }) else {
                    continue
                }
                if observation.isLink {
                    send(value * 100, on: count + messenger)
                    continue
                }
                if observation.isChain {
                    if value % 3 == 0 || observations[messenger][index].lastPassed == value { continue }
                    observations[messenger][index].lastPassed = value
                }
                log.append("\(observation.id):\(value)")
                if observation.relays, value % 7 == 0 {
                    send(value + 1, on: (messenger + 1) % count)
                }
            }
        }

        func isObserving(_ owner: Owner, _ messenger: Int) -> Bool {
            observations[messenger].contains { $0.owner == owner }
        }
    }

    /// The system under test, mirroring the model.
    final class World {
        /// The current sources; relaying handlers look up their target here, as the model does.
        let sourceTable: Locked<[Source]>
        var sources: [Source] { sourceTable.value }
        /// A standalone transform of each source, `map { $0 * 100 }`, kept across source deaths by
        /// replacing its origin.
        let transforms: [Mapped<Source, Int>]
        var observers: [Spy]
        var tokens: [Int: ObservationToken] = [:]
        let bag = ObservationBag()
        var tokensInBag: [Int] = []
        let log = EventLog()
        var model: Model
        var nextID = 0

        init(messengerCount: Int, observerCount: Int) {
            let sources = (0..<messengerCount).map { _ in Source() }
            sourceTable = Locked(sources)
            transforms = sources.map { $0.map { $0 * 100 } }
            observers = (0..<observerCount).map { Spy("\($0)") }
            model = Model(messengerCount: messengerCount)
        }

        func handler(id: Int, relays: Bool, messenger: Int) -> @Sendable (Int) -> Void {
            let log = log
            // Weak: the sources' handlers must not keep the sources alive.
            weak let sourceTable = sourceTable
            return { value in
                log.append("\(id):\(value)")
                if relays, value % 7 == 0 {
                    let next = sourceTable?.withLock { $0[(messenger + 1) % $0.count] }
                    next?.send(value + 1)
                }
            }
        }

        func observe(observer: Int, messenger: Int, relays: Bool, isChain: Bool) {
            let id = nextID
            nextID += 1
            let handler = handler(id: id, relays: relays, messenger: messenger)
            if messenger >= sources.count {
                // The transform's observers neither relay nor chain: what they receive depends on
                // the transform alone.
                let log = log
                observers[observer].observe(transforms[messenger - sources.count]) { value in
                    log.append("\(id):\(value)")
                }
                model.start(
                    ModelObservation(
                        id: id, owner: .observer(observer), firstSequence: model.sequences[messenger], relays: false),
                    on: messenger)
                return
            }
            if isChain {
                observers[observer].observe(sources[messenger]).filter { $0 % 3 != 0 }.distinct().receive(handler)
            } else {
                observers[observer].observe(sources[messenger], handler)
            }
            model.start(
                ModelObservation(
                    id: id,
                    owner: .observer(observer),
                    firstSequence: model.sequences[messenger],
                    relays: relays,
                    isChain: isChain
                ),
                on: messenger
            )
        }

        func subscribe(messenger: Int, intoBag: Bool) {
            let id = nextID
            nextID += 1
            let handler = handler(id: id, relays: false, messenger: messenger % sources.count)
            let token =
                messenger < sources.count
                ? sources[messenger].subscribe(handler) : transforms[messenger - sources.count].subscribe(handler)
            if intoBag {
                bag.insert(token)
                tokensInBag.append(id)
            } else {
                tokens[id] = token
            }
            model.start(
                ModelObservation(
                    id: id,
                    owner: .token(id),
                    firstSequence: model.sequences[messenger],
                    relays: false
                ),
                on: messenger
            )
        }

        func step(_ random: inout SeededGenerator) {
            let messenger = Int.random(in: 0..<sources.count, using: &random)
            let observer = Int.random(in: 0..<observers.count, using: &random)
            // One time in four, observe or stop observing the messenger's transform instead.
            let target = Int.random(in: 0..<4, using: &random) == 0 ? sources.count + messenger : messenger
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<22:
                observe(
                    observer: observer,
                    messenger: target,
                    relays: Bool.random(using: &random),
                    isChain: Int.random(in: 0..<4, using: &random) == 0
                )
            case 22..<30:
                subscribe(messenger: target, intoBag: Bool.random(using: &random))
            case 30..<37:
                if target == messenger {
                    observers[observer].stopObserving(sources[messenger])
                } else {
                    observers[observer].stopObserving(transforms[messenger])
                }
                model.observations[target].removeAll { $0.owner == .observer(observer) }
                model.updateLinks()
            case 37..<40:
                observers[observer].stopObserving()
                model.end { $0.owner == .observer(observer) }
            case 40..<43:
                // The observer dies; a new one takes its place.
                observers[observer] = Spy("\(observer)")
                model.end { $0.owner == .observer(observer) }
            case 43..<47:
                if let id = tokens.keys.randomElement(using: &random) {
                    tokens[id] = nil
                    model.end { $0.owner == .token(id) }
                }
            case 47..<48:
                bag.removeAll()
                let ended = Set(tokensInBag)
                tokensInBag = []
                model.end { if case .token(let id) = $0.owner { ended.contains(id) } else { false } }
            case 48..<50:
                // The source dies; a new one takes its place, also as its transform's origin. The
                // old one is released here, outside the table's lock.
                let new = Source()
                let old = sourceTable.withLock { table in
                    defer { table[messenger] = new }
                    return table[messenger]
                }
                transforms[messenger].origin = new
                _ = consume old
                model.replaceSource(messenger)
            case 50..<52:
                // Tokens are observers too: every observation of the messenger ends.
                if target == messenger {
                    sources[messenger].stopBeingObserved()
                    model.sourceStopsBeingObserved(messenger)
                } else {
                    transforms[messenger].stopBeingObserved()
                    model.observations[target] = []
                    model.updateLinks()
                }
            default:
                let value = Int.random(in: 0..<50, using: &random)
                sources[messenger].send(value)
                model.send(value, on: messenger)
            }
        }

        /// Compares the logs and what the observers say of themselves with the model.
        func check(step: Int, seed: UInt64) -> Bool {
            let actual = log.take()
            let expected = model.log
            model.log = []
            guard actual == expected else {
                Issue.record(
                    "seed \(seed), step \(step): delivered \(actual.suffix(12)), expected \(expected.suffix(12))")
                return false
            }
            let observables: [any ObservableSource<Int>] = sources + transforms
            for (index, observable) in observables.enumerated() {
                let count = model.observations[index].count
                let actual = observable.messenger.observationCount
                guard actual == count else {
                    Issue.record("seed \(seed), step \(step): \(actual) observations of \(index), expected \(count)")
                    return false
                }
                for (observerIndex, observer) in observers.enumerated()
                where observer.isObserving(observable) != model.isObserving(.observer(observerIndex), index) {
                    Issue.record("seed \(seed), step \(step): isObserving(\(observerIndex), \(index)) disagrees")
                    return false
                }
            }
            return true
        }
    }

    static var steps: Int {
        modelSteps(standard: 100_000)
    }

    @Test("random operations on three messengers match the model", arguments: [1, 2, 3] as [UInt64])
    func randomOperationsMatchTheModel(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let world = World(messengerCount: 3, observerCount: 4)
        for step in 0..<Self.steps {
            world.step(&random)
            guard world.check(step: step, seed: seed) else { return }
        }
    }
}

/// The same kinds of operations from 8 real threads at once: per sender, observers that observed
/// throughout receive every message once, in the order it was sent.
@Suite("Model: 8 threads of random operations lose, duplicate and reorder nothing")
struct ConcurrentModelTests {
    /// A message: which thread sent it, and its number among that thread's sends on the messenger.
    struct Stamp: Sendable, Equatable {
        let sender: Int
        let number: Int
    }

    @Test("senders, churning observers, tokens and dying observers on three messengers")
    func eightThreads() {
        let messengers = (0..<3).map { _ in Messenger<Stamp>() }
        let senderCount = 4
        let sendsPerSender = 3_000
        // Observers that observe every messenger throughout: what each received, per messenger.
        let steady = (0..<2).map { _ in Spy("steady") }
        let received = (0..<steady.count).map { _ in (0..<messengers.count).map { _ in Locked<[Stamp]>([]) } }
        for (observerIndex, observer) in steady.enumerated() {
            for (messengerIndex, messenger) in messengers.enumerated() {
                let log = received[observerIndex][messengerIndex]
                observer.observe(messenger) { stamp in log.withLock { $0.append(stamp) } }
            }
        }
        // What each sender sent, per messenger.
        let sent = (0..<senderCount).map { _ in (0..<messengers.count).map { _ in Locked<[Stamp]>([]) } }

        let finished = runOnThreads(8) { thread in
            var random = SeededGenerator(seed: UInt64(thread) &+ 100)
            if thread < senderCount {
                var numbers = Array(repeating: 0, count: messengers.count)
                for _ in 0..<sendsPerSender {
                    let index = Int.random(in: 0..<messengers.count, using: &random)
                    let stamp = Stamp(sender: thread, number: numbers[index])
                    numbers[index] += 1
                    sent[thread][index].withLock { $0.append(stamp) }
                    messengers[index].send(stamp)
                }
                return
            }
            // Churn: observers that come and go, tokens, bags, observers that die mid-delivery.
            var observers = (0..<4).map { _ in Spy("churn") }
            var tokens: [ObservationToken] = []
            let bag = ObservationBag()
            for _ in 0..<4_000 {
                let messenger = messengers[Int.random(in: 0..<messengers.count, using: &random)]
                let index = Int.random(in: 0..<observers.count, using: &random)
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<3: observers[index].observe(messenger) { _ in }
                case 3: observers[index].stopObserving(messenger)
                case 4: observers[index].stopObserving()
                case 5: observers[index] = Spy("churn")
                case 6: tokens.append(messenger.subscribe { _ in })
                case 7: if !tokens.isEmpty { tokens.removeFirst() }
                case 8: bag.insert(messenger.subscribe { _ in })
                default: bag.removeAll()
                }
            }
        }
        #expect(finished, "deadlock, or far too slow")
        // A send past its budget of other threads' messages hands the rest on: wait for it.
        #expect(waitUntilDelivered(messengers[0], messengers[1], messengers[2]))

        for observerIndex in steady.indices {
            for messengerIndex in messengers.indices {
                let stamps = received[observerIndex][messengerIndex].value
                for sender in 0..<senderCount {
                    let got = stamps.filter { $0.sender == sender }
                    let expected = sent[sender][messengerIndex].value
                    // A Bool, not `got == expected`: a failing comparison of large arrays is slow to print.
                    let same = got == expected
                    #expect(
                        same,
                        "observer \(observerIndex), messenger \(messengerIndex), sender \(sender): \(got.count) of \(expected.count)"
                    )
                }
            }
        }
        withExtendedLifetime(steady) {}
    }
}
