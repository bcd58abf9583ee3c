// Runs one scenario a given number of times, for counting instructions with
// `valgrind --tool=callgrind`, which gives the same total run after run whatever else the machine
// does. Run each scenario twice, with `count` and with 0, and divide the difference by `count`:
//
//     valgrind --tool=callgrind --callgrind-out-file=/dev/null .build/release/InstructionCounts messenger-send-1000 1000
//
// Scenarios: closure-send-1, messenger-send-1, closure-send-1000, messenger-send-1000 (per
// delivery), messenger-chain-1 and messenger-chain-1000 (per delivery through map, filter, map),
// var-set (a variable with one observer), token-subscribe-cancel, observe-existing (an observer
// made before observes a messenger), observe-and-stop (an observer observes a messenger and stops
// observing it), empty-messenger, standalone-map-1 and standalone-map-1000 (per delivery through a
// standalone `map`, one per observer: compare with messenger-send-1 and messenger-send-1000),
// standalone-map-shared-1000 (one standalone `map` that 1000 observers share), closure-chain-1000
// (per delivery through three closures fused into one handler of a closure array),
// messenger-fused-chain-1 and messenger-fused-chain-1000 (the same fused handler on a messenger:
// what any chain of three opaque closures costs at best),
// am-i-subscribed-1000 (per question: a messenger asked about each of its 1,000 observers in turn),
// throttle-1, debounce-1, chain-throttle-1 and chain-debounce-1 (per message of one long burst to
// one observer, through a standalone or a chain stage with an interval of an hour: the steady
// state, where a throttle drops and a debounce moves its deadline), chain-throttle-latest-1
// (a throttle with `latest: true`: each message replaces the waiting one), chain-delay-1 (each
// message waits behind the others, in the stage's ring) and chain-timeout-1 (each message goes on
// and moves the deadline), combine-latest-2,
// combine-latest-4 and combine-latest-5 (per message of one source of a combination of two, four
// or five messengers, to one observer; five take the parameter pack's path), zip-2 (per pair: one
// message of each of two zipped messengers, to one observer),
// ledger-subscribe-unsubscribe (GeneralObserver alone: a subscription and an unsubscription of a
// tracking observer by a plain observable); array-append-1e5 (an append to an observed
// ObservableArray of 10^5 elements), array-append-count-*, array-append-sum-* and
// array-append-count-where-* (the same with that aggregate observed instead, at 10^4, 10^5 or
// 10^6 elements), recompute-sum-1e5 and recompute-count-where-1e5 (an append to a plain array and
// the aggregate recomputed), array-append-sorted-*, array-append-sorted-prefix-* and
// array-append-min-* (an append of a pseudo-random number to an ObservableArray of 10^4, 10^5 or
// 10^6 elements with its sorted view, the view's first 10 elements or its least element observed),
// recompute-sorted-1e5 and recompute-min-1e5 (the same append to a plain array, sorted again or
// searched for its least element), array-sorted-view-memory-1e6 (prints the bytes per element that
// a sorted view of 10^6 elements allocates, not a count of instructions), array-set-element-1000
// (per delivery: one element set, 1,000 observers) and array-var-set-element-1000 (the same on a
// Var<[Int]> of 10^5 elements); array-insert-* (an insertion at a pseudo-random index into an
// observed ObservableArray of 10^4, 10^5 or 10^6 elements), array-insert-filter-* (the same with a
// filtered view of the array observed instead) and recompute-filter-1e5 (the same insertion into a
// plain array, filtered again from scratch); array-insert-filter-property-* (an insertion at a
// pseudo-random index into an ObservableArray of 10^4, 10^5 or 10^6 elements, each with a
// Var<Bool>, half of them true, with the view filtered by that property observed),
// property-flip-filter-1e5 (one element's Var<Bool> toggled, with that view of 10^5 elements
// observed), property-update-follow-each-1e5 (the same toggle with the array's followEach view of
// that property observed) and recompute-filter-property-1e5 (the same insertion into a plain array, filtered again
// reading each element's property); array-insert-filter-parameter-* (an insertion at a pseudo-random index
// into an ObservableArray of 10^4, 10^5 or 10^6 Ints with a view filtered by a Var parameter, the
// multiples of 2, observed), parameter-change-filter-1e5 (that view of 10^5 elements observed, the
// Var set to 3, then 2, and so on) and recompute-filter-parameter-1e5 (filtering a plain array of
// 10^5 Ints again with each new divisor); set-insert-1e5 and set-insert-filter-parameter-1e5 (a new
// member inserted into an ObservableSet of 10^5 Ints, observed plainly or through a view filtered by
// a Var divisor, 2), parameter-change-set-filter-1e5 (that view observed, the divisor set to 3,
// then 2, and so on) and recompute-set-filter-parameter-1e5 (filtering a plain Set of 10^5 Ints
// again with each new divisor); set-insert-transaction-1e5 (per insertion: insertions in
// transactions of 1,000 into an observed ObservableSet of 10^5 Ints); set-insert-count-1e5 and
// set-insert-count-expression-1e5 (a new member inserted into an ObservableSet of 10^5 Ints, its
// observableCount observed, or an expression of that count and a Var); set-insert-contains-1e5 and
// set-insert-contains-expression-1e5 (the same insertion, with whether the set has one absent
// member observed, or an expression of that membership and the set's count); dictionary-update-1e5 (a new value for one key of an observed
// ObservableDictionary of 10^5 entries); set-insert-flagged-1e5 and set-insert-filter-property-1e5 (a new
// member inserted into an ObservableSet of 10^5 objects, each with a Var<Bool>, half of them true,
// observed plainly or through the view filtered by that property), property-flip-set-filter-1e5
// (one member's Var<Bool> toggled, with that view observed) and recompute-set-filter-property-1e5
// (the same insertion into a plain Set, filtered again reading each member's property);
// array-append-transaction-sum-1e5 (per append: appends in
// transactions of 100 to an array of 10^5 elements with its sum observed);
// array-append-concatenated-1e5 (an append to the second
// of two arrays of 10^5 elements whose concatenation is observed), expression-var-set-2 (per update:
// a Var set that feeds an observed expression of two variables, their sum; compare with var-set and
// combine-latest-2), expression-array-share-1e5 (per append to an array of 10^5 elements: an observed
// expression of two folds of it, the share of even elements in percent), expression-array-range-1e5
// (per append of a pseudo-random number to an array of 10^5 elements: an observed expression of its
// greatest and least elements, their difference); array-insert-share-property-1e5 and
// property-flip-share-1e5 (the insertion and the toggle of array-insert-filter-property-1e5 and
// property-flip-filter-1e5, with an observed expression of the view's count and the array's count,
// the share of included elements in percent, instead of the view).

import Foundation
import MallocInfo
import Messaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps a value from being optimized away.
@inline(never)
func consume(_ value: Int) {
    if value == -1 { print(value) }
}

/// The baseline: handlers in an array behind a mutex, copied under the lock and called after.
final class LockedClosureList: @unchecked Sendable {  // `handlers` is guarded by `mutex`
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var handlers: [(Int) -> Void] = []

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    func append(_ handler: @escaping (Int) -> Void) {
        pthread_mutex_lock(mutex)
        handlers.append(handler)
        pthread_mutex_unlock(mutex)
    }

    func send(_ value: Int) {
        pthread_mutex_lock(mutex)
        let snapshot = handlers
        pthread_mutex_unlock(mutex)
        for handler in snapshot { handler(value) }
    }
}

/// A GeneralObserver observable with the default implementations.
final class PlainObservable: GeneralObservable, Sendable {
    let subscriptionLedger = SubscriptionLedger()
}

/// A GeneralObserver tracking observer with the default implementations.
final class PlainTracker: GeneralTrackingSubscriber, Sendable {
    let subscriptionLedger = SubscriptionLedger()
}

/// What a receiver captures, as a real handler captures its observer.
final class Receiving: Sendable {
    @inline(never)
    func consume(_ value: Int) { InstructionCounts.consume(value) }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]) else {
    print("usage: InstructionCounts SCENARIO COUNT")
    exit(2)
}

// Top-level code runs on the main actor; the scenarios run in a nonisolated function, as code
// that observes and sends from a background thread does, except the one that sends on the main
// actor to a main-actor observer.
if arguments[1] == "main-actor-send-1" {
    runOnTheMainActor(count)
} else {
    run(arguments[1], count)
}

/// A main-actor observer: a send on the main actor runs its handler at once, through the main
/// actor's queue (the synchronous path of an actor handler).
final class MainActorReceiving: MainActorObserver {
    let receiver = Receiver()
    private(set) var sum = 0

    func consume(_ value: Int) {
        sum &+= value
    }
}

@MainActor
func runOnTheMainActor(_ count: Int) {
    let messenger = Messenger<Int>()
    let observer = MainActorReceiving()
    observer.observe(messenger) { observer.consume($0) }
    for value in 0..<count { messenger.send(value) }
    precondition(count == 0 || observer.sum > 0 || count == 1)
}

func run(_ scenario: String, _ count: Int) {
    switch scenario {
    case "closure-send-1", "closure-send-1000":
        let list = LockedClosureList()
        for _ in 0..<(scenario == "closure-send-1" ? 1 : 1000) {
            let receiving = Receiving()
            list.append { receiving.consume($0) }
        }
        for value in 0..<count { list.send(value) }
    case "closure-chain-1000":
        // The floor for any chain of closures: per receiver, one fused closure that calls map,
        // filter and map (closures the compiler cannot see into) and then the handler. Compare
        // with closure-send-1000 for what three user closures cost, however a library composes
        // them.
        let list = LockedClosureList()
        for _ in 0..<1000 {
            let receiving = Receiving()
            list.append(fused({ $0 &+ 1 }, { $0 != Int.min }, { $0 &* 2 }) { receiving.consume($0) })
        }
        for value in 0..<count { list.send(value) }
    case "messenger-fused-chain-1", "messenger-fused-chain-1000":
        let messenger = Messenger<Int>()
        let observers = (0..<(scenario == "messenger-fused-chain-1" ? 1 : 1000)).map { _ in FreeObserver() }
        for observer in observers {
            let receiving = Receiving()
            observer.observe(messenger, fused({ $0 &+ 1 }, { $0 != Int.min }, { $0 &* 2 }) { receiving.consume($0) })
        }
        for value in 0..<count { messenger.send(value) }
        withExtendedLifetime(observers) {}
    case "messenger-send-1", "messenger-send-1000":
        let messenger = Messenger<Int>()
        let observers = (0..<(scenario == "messenger-send-1" ? 1 : 1000)).map { _ in FreeObserver() }
        for observer in observers {
            let receiving = Receiving()
            observer.observe(messenger) { receiving.consume($0) }
        }
        for value in 0..<count { messenger.send(value) }
        withExtendedLifetime(observers) {}
    case "messenger-chain-1", "messenger-chain-1000":
        // Per delivery through map, filter (letting everything through), map, into the handler.
        let messenger = Messenger<Int>()
        let observers = (0..<(scenario == "messenger-chain-1" ? 1 : 1000)).map { _ in FreeObserver() }
        for observer in observers {
            let receiving = Receiving()
            observer.observe(messenger).map { $0 &+ 1 }.filter { $0 != Int.min }.map { $0 &* 2 }.receive {
                receiving.consume($0)
            }
        }
        for value in 0..<count { messenger.send(value) }
        withExtendedLifetime(observers) {}
    case "standalone-map-1", "standalone-map-1000":
        // Each observer observes a standalone map of its own: per delivery, the origin's delivery
        // to the map, the map and the map's delivery to its one observer.
        let messenger = Messenger<Int>()
        let observers = (0..<(scenario == "standalone-map-1" ? 1 : 1000)).map { _ in FreeObserver() }
        for observer in observers {
            let receiving = Receiving()
            observer.observe(messenger.map { $0 &+ 1 }) { receiving.consume($0) }
        }
        for value in 0..<count { messenger.send(value) }
        withExtendedLifetime(observers) {}
    case "standalone-map-shared-1000":
        let messenger = Messenger<Int>()
        let mapped = messenger.map { $0 &+ 1 }
        let observers = (0..<1000).map { _ in FreeObserver() }
        for observer in observers {
            let receiving = Receiving()
            observer.observe(mapped) { receiving.consume($0) }
        }
        for value in 0..<count { messenger.send(value) }
        withExtendedLifetime(observers) {}
    case "var-set":
        let variable = Var(0)
        let observer = FreeObserver()
        let receiving = Receiving()
        observer.observe(variable) { receiving.consume($0.new) }
        for value in 0..<count { variable.value = value &+ 1 }
        withExtendedLifetime(observer) {}
    case "token-subscribe-cancel":
        let messenger = Messenger<Int>()
        for _ in 0..<count {
            let token = messenger.subscribe { consume($0) }
            token.stopObserving()
        }
    case "observe-existing":
        // Observers made before the measurement; each observes one messenger once. The observers
        // go first, then the messenger: in the other order the messenger's `deinit` ends every
        // observation instead, and which one the optimizer picks must not move the figure.
        let messenger = Messenger<Int>()
        do {
            let observers = (0..<count).map { _ in FreeObserver() }
            for observer in observers {
                observer.observe(messenger) { consume($0) }
            }
            withExtendedLifetime(observers) {}
        }
        withExtendedLifetime(messenger) {}
    case "observe-and-stop":
        // One observer observes a messenger and stops observing it, again and again.
        let messenger = Messenger<Int>()
        let observer = FreeObserver()
        for _ in 0..<count {
            observer.observe(messenger) { consume($0) }
            observer.stopObserving(messenger)
        }
        withExtendedLifetime(observer) {}
    case "am-i-subscribed-1000":
        let messenger = Messenger<Int>()
        let observers = (0..<1000).map { _ in FreeObserver() }
        for observer in observers {
            observer.observe(messenger) { consume($0) }
        }
        var answers = 0
        for _ in 0..<count {
            for observer in observers where messenger.amISubscribed(observer) { answers &+= 1 }
        }
        consume(answers)
    case "throttle-1", "debounce-1", "chain-throttle-1", "chain-debounce-1", "chain-throttle-latest-1",
        "chain-delay-1", "chain-timeout-1":
        let messenger = Messenger<Int>()
        let observer = FreeObserver()
        let receiving = Receiving()
        let hour = Duration.seconds(3_600)
        var stage: AnyObject?
        switch scenario {
        case "throttle-1":
            let throttled = messenger.throttle(for: hour)
            observer.observe(throttled) { receiving.consume($0) }
            stage = throttled
        case "debounce-1":
            let debounced = messenger.debounce(for: hour)
            observer.observe(debounced) { receiving.consume($0) }
            stage = debounced
        case "chain-throttle-1":
            observer.observe(messenger).throttle(for: hour).receive { receiving.consume($0) }
        case "chain-throttle-latest-1":
            observer.observe(messenger).throttle(for: hour, latest: true).receive { receiving.consume($0) }
        case "chain-delay-1":
            observer.observe(messenger).delay(for: hour).receive { receiving.consume($0) }
        case "chain-timeout-1":
            observer.observe(messenger).timeout(hour).receive { receiving.consume($0 ?? -2) }
        default:
            observer.observe(messenger).debounce(for: hour).receive { receiving.consume($0) }
        }
        // The burst's first message: it passes the throttle, or starts the countdown (a delay's
        // first wait, a timeout's countdown runs from the start).
        messenger.send(-1)
        for value in 0..<count { messenger.send(value) }
        withExtendedLifetime((observer, stage)) {}
    case "combine-latest-2", "combine-latest-4", "combine-latest-5":
        let messengers = (0..<5).map { _ in Messenger<Int>() }
        let observer = FreeObserver()
        let receiving = Receiving()
        var combined: AnyObject
        if scenario == "combine-latest-2" {
            let pair = combineLatest(messengers[0], messengers[1])
            observer.observe(pair) { (pair: (Int, Int)) in receiving.consume(pair.0 &+ pair.1) }
            combined = pair
        } else if scenario == "combine-latest-4" {
            let four = combineLatest(messengers[0], messengers[1], messengers[2], messengers[3])
            observer.observe(four) { (four: (Int, Int, Int, Int)) in receiving.consume(four.0 &+ four.3) }
            combined = four
        } else {
            // Five sources take the parameter pack's path.
            let five = combineLatest(messengers[0], messengers[1], messengers[2], messengers[3], messengers[4])
            observer.observe(five) { (five: (Int, Int, Int, Int, Int)) in receiving.consume(five.0 &+ five.4) }
            combined = five
        }
        for messenger in messengers { messenger.send(0) }  // every source has a message
        for value in 0..<count { messengers[1].send(value) }
        withExtendedLifetime((observer, combined)) {}
    case "zip-2":
        // Per pair: one message of each source of a zip of two messengers, to one observer.
        let first = Messenger<Int>()
        let second = Messenger<Int>()
        let observer = FreeObserver()
        let receiving = Receiving()
        let zipped = first.zip(second)
        observer.observe(zipped) { (pair: (Int, Int)) in receiving.consume(pair.0 &+ pair.1) }
        for value in 0..<count {
            first.send(value)
            second.send(value)
        }
        withExtendedLifetime((observer, zipped)) {}
    case _
    where scenario.hasPrefix("array-") || scenario.hasPrefix("recompute-") || scenario.hasPrefix("expression-")
        || scenario.hasPrefix("property-") || scenario.hasPrefix("parameter-") || scenario.hasPrefix("set-")
        || scenario.hasPrefix("dictionary-"):
        runCollectionScenario(scenario, count)
    case "empty-messenger":
        let messengers = (0..<count).map { _ in Messenger<Int>() }
        withExtendedLifetime(messengers) {}
    case "ledger-subscribe-unsubscribe":
        // GeneralObserver alone: a plain observable subscribes a tracking observer and
        // unsubscribes it, again and again; both ledgers change, and the callbacks are defaults.
        let observable = PlainObservable()
        let tracker = PlainTracker()
        for _ in 0..<count {
            observable.subscribe(tracker)
            observable.unsubscribe(tracker)
        }
        withExtendedLifetime((observable, tracker)) {}
    default:
        print("unknown scenario \(scenario)")
        exit(2)
    }
}

/// One closure that runs `first`, `isIncluded` and `second`, then `receive`: a chain fused by hand.
/// Not inlined, so that the closures stay opaque calls, as a library's stored closures are.
@inline(never)
func fused(
    _ first: @escaping @Sendable (Int) -> Int,
    _ isIncluded: @escaping @Sendable (Int) -> Bool,
    _ second: @escaping @Sendable (Int) -> Int,
    _ receive: @escaping @Sendable (Int) -> Void
) -> @Sendable (Int) -> Void {
    { value in
        let mapped = first(value)
        if isIncluded(mapped) { receive(second(mapped)) }
    }
}

/// The same sequence of non-negative numbers on every run: indices and values for the insertion
/// scenarios.
struct PseudoRandom {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func next() -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(truncatingIfNeeded: state >> 33)
    }

    /// The next number, from 0 up to, not including, `bound`.
    mutating func next(below bound: Int) -> Int {
        next() % bound
    }
}

/// The size at the end of a collection scenario's name: `-1e4`, `-1e5` or `-1e6`.
/// An element with an observable property, included in a filter by property where its value is even.
final class FlaggedItem: Sendable {
    let value: Int
    let isIncluded: Var<Bool>

    init(_ value: Int) {
        self.value = value
        isIncluded = Var(value & 1 == 0)
    }
}

/// Members of a set by identity.
extension FlaggedItem: Hashable {
    static func == (lhs: FlaggedItem, rhs: FlaggedItem) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

func size(of scenario: String) -> Int {
    if scenario.hasSuffix("-1e4") { return 10_000 }
    if scenario.hasSuffix("-1e5") { return 100_000 }
    if scenario.hasSuffix("-1e6") { return 1_000_000 }
    print("no size in \(scenario)")
    exit(2)
}

/// Collection scenarios: per edit of an observed `ObservableArray` of the given size, with an
/// aggregate observed or not, against the same edit of a plain array followed by recomputing the
/// aggregate; and one element change delivered to 1,000 observers, per delivery, against a
/// `Var<[Int]>` that delivers the whole array.
func runCollectionScenario(_ scenario: String, _ count: Int) {
    let receiving = Receiving()
    switch scenario {
    case _ where scenario.hasPrefix("array-append-sorted-") || scenario.hasPrefix("array-append-min-"):
        let size = size(of: scenario)
        let array = ObservableArray(Array(0..<size))
        let token: ObservationToken
        if scenario.hasPrefix("array-append-sorted-prefix-") {
            token = array.sortedView().prefix(10).subscribe { receiving.consume($0.countAfter) }
        } else if scenario.hasPrefix("array-append-sorted-") {
            token = array.sortedView().subscribe { receiving.consume($0.countAfter) }
        } else {
            token = array.observableMin.subscribe { receiving.consume($0.new ?? 0) }
        }
        var random = PseudoRandom(state: 0x2545_F491_4F6C_DD1D)
        for _ in 0..<count { array.append(random.next(below: 2 * size)) }
        withExtendedLifetime(token) {}
    case "recompute-sorted-1e5", "recompute-min-1e5":
        let size = size(of: scenario)
        var array = Array(0..<size)
        var random = PseudoRandom(state: 0x2545_F491_4F6C_DD1D)
        for _ in 0..<count {
            array.append(random.next(below: 2 * size))
            if scenario.hasPrefix("recompute-sorted-") {
                receiving.consume(array.sorted()[size / 2])
            } else {
                receiving.consume(array.min() ?? 0)
            }
        }
    case "array-sorted-view-memory-1e6":
        let size = size(of: scenario)
        let array = ObservableArray((0..<size).map { $0 * 7_919 % size })
        let view = array.sortedView()
        let before = allocatedBytes()
        let token = view.subscribe { receiving.consume($0.countAfter) }
        let after = allocatedBytes()
        print("sorted view of \(size) Int elements:", Double(after - before) / Double(size), "bytes per element")
        withExtendedLifetime((token, view)) {}
    case "array-append-concatenated-1e5":
        let first = ObservableArray(Array(0..<100_000))
        let second = ObservableArray(Array(0..<100_000))
        let token = first.concatenated(with: second).subscribe { receiving.consume($0.countAfter) }
        for value in 0..<count { second.append(value) }
        withExtendedLifetime(token) {}
    case "expression-var-set-2":
        let a = Var(0)
        let b = Var(1)
        let sum = ObservableExpression(a).adding(ObservableExpression(b))
        let token = sum.subscribe { receiving.consume($0.new) }
        for value in 0..<count { a.value = value &+ 1 }
        withExtendedLifetime(token) {}
    case "expression-array-share-1e5":
        // Per append: the share of even elements in percent, from two folds of one array.
        let array = ObservableArray(Array(0..<100_000))
        let even = ObservableExpression(array.observableCount { $0 & 1 == 0 })
        let share = even.multiplied(by: 100).divided(by: ObservableExpression(array.observableCount), ifZero: 0)
        let token = share.subscribe { receiving.consume($0.new) }
        for value in 0..<count { array.append(value) }
        withExtendedLifetime(token) {}
    case "expression-array-range-1e5":
        // Per append to an array of 10^5 elements: an observed expression of its greatest and
        // least elements, observed together (compare with array-append-min-1e5).
        let array = ObservableArray(Array(0..<100_000))
        let range = ObservableExpression(array.observableMax)
            .combined(with: ObservableExpression(array.observableMin)) { ($0 ?? 0) - ($1 ?? 0) }
        let token = range.subscribe { receiving.consume($0.new) }
        var random = PseudoRandom(state: 0x2545_F491_4F6C_DD1D)
        for _ in 0..<count { array.append(random.next(below: 200_000)) }
        withExtendedLifetime(token) {}
    case "array-append-transaction-sum-1e5":
        // Per append: appends grouped in transactions of 100, the sum observed.
        let array = ObservableArray(Array(0..<100_000))
        let token = array.observableSum.subscribe { receiving.consume($0.new) }
        for start in stride(from: 0, to: count, by: 100) {
            array.withTransaction {
                for value in start..<Swift.min(start + 100, count) { array.append(value) }
            }
        }
        withExtendedLifetime(token) {}
    case _ where scenario.hasPrefix("array-append-"):
        let size = size(of: scenario)
        let array = ObservableArray(Array(0..<size))
        let token: ObservationToken
        if scenario.hasPrefix("array-append-sum-") {
            token = array.observableSum.subscribe { receiving.consume($0.new) }
        } else if scenario.hasPrefix("array-append-count-where-") {
            token = array.observableCount { $0 & 1 == 0 }.subscribe { receiving.consume($0.new) }
        } else if scenario.hasPrefix("array-append-count-") {
            token = array.observableCount.subscribe { receiving.consume($0.new) }
        } else {
            token = array.subscribe { receiving.consume($0.countAfter) }
        }
        for value in 0..<count { array.append(value) }
        withExtendedLifetime(token) {}
    case _ where scenario.hasPrefix("array-insert-filter-parameter-"):
        let size = size(of: scenario)
        let array = ObservableArray(Array(0..<size))
        let divisor = Var(2)
        let view = array.filteredElements(matching: divisor) { $0 % $1 == 0 }
        let token = view.subscribe { receiving.consume($0.countAfter) }
        var random = PseudoRandom()
        for _ in 0..<count {
            let value = random.next()
            array.insert(value, at: value % (array.count + 1))
        }
        withExtendedLifetime(token) {}
    case "parameter-change-filter-1e5":
        let array = ObservableArray(Array(0..<100_000))
        let divisor = Var(2)
        let view = array.filteredElements(matching: divisor) { $0 % $1 == 0 }
        let token = view.subscribe { receiving.consume($0.countAfter) }
        for step in 0..<count {
            divisor.value = 2 + step % 2
        }
        withExtendedLifetime(token) {}
    case "set-insert-1e5", "set-insert-filter-parameter-1e5":
        let set = ObservableSet(Set(0..<100_000))
        let divisor = Var(2)
        let token =
            scenario == "set-insert-1e5"
            ? set.subscribe { receiving.consume($0.inserted.count) }
            : set.filteredElements(matching: divisor) { $0 % $1 == 0 }.subscribe {
                receiving.consume($0.inserted.count)
            }
        for value in 0..<count { set.insert(100_000 + value) }
        withExtendedLifetime(token) {}
    case "set-insert-count-1e5", "set-insert-count-expression-1e5":
        // Per insertion into a set of 10^5 members: its count observed, or an expression of the
        // count and a Var (the percentage of a capacity) observed.
        let set = ObservableSet(Set(0..<100_000))
        let token: ObservationToken
        if scenario == "set-insert-count-1e5" {
            token = set.observableCount.subscribe { receiving.consume($0.new) }
        } else {
            let capacity = Var(1_000_000)
            let percent = ObservableExpression(set.observableCount).multiplied(by: 100)
                .divided(by: ObservableExpression(capacity), ifZero: 0)
            token = percent.subscribe { receiving.consume($0.new) }
        }
        for value in 0..<count { set.insert(100_000 + value) }
        withExtendedLifetime(token) {}
    case "set-insert-contains-1e5", "set-insert-contains-expression-1e5":
        // Per insertion into a set of 10^5 members: whether it has one member observed, or an
        // expression of that membership and the set's count (observed together) observed.
        let set = ObservableSet(Set(0..<100_000))
        let token: ObservationToken
        if scenario == "set-insert-contains-1e5" {
            token = set.observableContains(-1).subscribe { receiving.consume($0.new ? 1 : 0) }
        } else {
            let badge = ObservableExpression(set.observableCount)
                .combined(with: ObservableExpression(set.observableContains(-1))) { $1 ? $0 - 1 : $0 }
            token = badge.subscribe { receiving.consume($0.new) }
        }
        for value in 0..<count { set.insert(100_000 + value) }
        withExtendedLifetime(token) {}
    case "set-insert-transaction-1e5":
        let set = ObservableSet(Set(0..<100_000))
        let token = set.subscribe { receiving.consume($0.inserted.count) }
        var value = 0
        while value < count {
            set.withTransaction {
                for _ in 0..<min(1000, count - value) {
                    set.insert(100_000 + value)
                    value += 1
                }
            }
        }
        withExtendedLifetime(token) {}
    case "dictionary-update-1e5":
        let dictionary = ObservableDictionary(Dictionary(uniqueKeysWithValues: (0..<100_000).map { ($0, 0) }))
        let token = dictionary.subscribe { receiving.consume($0.updated.count) }
        for value in 0..<count { dictionary[value % 100_000] = value + 1 }
        withExtendedLifetime(token) {}
    case "parameter-change-set-filter-1e5":
        let set = ObservableSet(Set(0..<100_000))
        let divisor = Var(2)
        let view = set.filteredElements(matching: divisor) { $0 % $1 == 0 }
        let token = view.subscribe { receiving.consume($0.inserted.count) }
        for step in 0..<count {
            divisor.value = 2 + step % 2
        }
        withExtendedLifetime(token) {}
    case "recompute-set-filter-parameter-1e5":
        let set = Set(0..<100_000)
        for step in 0..<count {
            let divisor = 2 + step % 2
            receiving.consume(set.filter { $0 % divisor == 0 }.count)
        }
    case "recompute-filter-parameter-1e5":
        let array = Array(0..<100_000)
        for step in 0..<count {
            let divisor = 2 + step % 2
            receiving.consume(array.filter { $0 % divisor == 0 }.count)
        }
    case _ where scenario.hasPrefix("array-insert-filter-property-"):
        let size = size(of: scenario)
        let array = ObservableArray((0..<size).map(FlaggedItem.init))
        let token = array.filteredElements(by: \.isIncluded).subscribe { receiving.consume($0.countAfter) }
        var random = PseudoRandom()
        for _ in 0..<count {
            let value = random.next()
            array.insert(FlaggedItem(value), at: value % (array.count + 1))
        }
        withExtendedLifetime(token) {}
    case "array-insert-share-property-1e5", "property-flip-share-1e5":
        // The share of included elements: the view's count and the array's count, observed together.
        let items = (0..<100_000).map(FlaggedItem.init)
        let array = ObservableArray(items)
        let included = ObservableExpression(array.filteredElements(by: \.isIncluded).observableCount)
        let share = included.multiplied(by: 100).divided(by: ObservableExpression(array.observableCount), ifZero: 0)
        let token = share.subscribe { receiving.consume($0.new) }
        var random = PseudoRandom()
        for _ in 0..<count {
            let value = random.next()
            if scenario == "property-flip-share-1e5" {
                items[value % items.count].isIncluded.value.toggle()
            } else {
                array.insert(FlaggedItem(value), at: value % (array.count + 1))
            }
        }
        withExtendedLifetime(token) {}
    case "property-update-follow-each-1e5":
        let items = (0..<100_000).map(FlaggedItem.init)
        let array = ObservableArray(items)
        let token = array.followEach(\.isIncluded).subscribe { receiving.consume($0.countAfter) }
        var random = PseudoRandom()
        for _ in 0..<count {
            items[random.next() % items.count].isIncluded.value.toggle()
        }
        withExtendedLifetime(token) {}
    case "property-flip-filter-1e5":
        let items = (0..<100_000).map(FlaggedItem.init)
        let array = ObservableArray(items)
        let token = array.filteredElements(by: \.isIncluded).subscribe { receiving.consume($0.countAfter) }
        var random = PseudoRandom()
        for _ in 0..<count {
            items[random.next() % items.count].isIncluded.value.toggle()
        }
        withExtendedLifetime(token) {}
    case "set-insert-flagged-1e5", "set-insert-filter-property-1e5":
        let set = ObservableSet(Set((0..<100_000).map(FlaggedItem.init)))
        let token =
            scenario == "set-insert-flagged-1e5"
            ? set.subscribe { receiving.consume($0.inserted.count) }
            : set.filteredElements(by: \.isIncluded).subscribe { receiving.consume($0.inserted.count) }
        let items = (0..<count).map { FlaggedItem(100_000 + $0) }
        for item in items { set.insert(item) }
        withExtendedLifetime(token) {}
    case "property-flip-set-filter-1e5":
        let items = (0..<100_000).map(FlaggedItem.init)
        let set = ObservableSet(Set(items))
        let token = set.filteredElements(by: \.isIncluded).subscribe { receiving.consume($0.inserted.count) }
        var random = PseudoRandom()
        for _ in 0..<count {
            items[random.next() % items.count].isIncluded.value.toggle()
        }
        withExtendedLifetime(token) {}
    case "recompute-set-filter-property-1e5":
        var set = Set((0..<100_000).map(FlaggedItem.init))
        let items = (0..<count).map { FlaggedItem(100_000 + $0) }
        for item in items {
            set.insert(item)
            receiving.consume(set.filter { $0.isIncluded.value }.count)
        }
    case "recompute-filter-property-1e5":
        var array = (0..<100_000).map(FlaggedItem.init)
        var random = PseudoRandom()
        for _ in 0..<count {
            let value = random.next()
            array.insert(FlaggedItem(value), at: value % (array.count + 1))
            receiving.consume(array.filter { $0.isIncluded.value }.count)
        }
    case _ where scenario.hasPrefix("array-insert-"):
        let size = size(of: scenario)
        let array = ObservableArray(Array(0..<size))
        let token: ObservationToken
        if scenario.hasPrefix("array-insert-filter-") {
            token = array.filteredElements { $0 & 1 == 0 }.subscribe { receiving.consume($0.countAfter) }
        } else {
            token = array.subscribe { receiving.consume($0.countAfter) }
        }
        var random = PseudoRandom()
        for _ in 0..<count {
            let value = random.next()
            array.insert(value, at: value % (array.count + 1))
        }
        withExtendedLifetime(token) {}
    case "recompute-filter-1e5":
        var array = Array(0..<100_000)
        var random = PseudoRandom()
        for _ in 0..<count {
            let value = random.next()
            array.insert(value, at: value % (array.count + 1))
            receiving.consume(array.filter { $0 & 1 == 0 }.count)
        }
    case _ where scenario.hasPrefix("recompute-"):
        let size = size(of: scenario)
        var array = Array(0..<size)
        for value in 0..<count {
            array.append(value)
            if scenario.hasPrefix("recompute-sum-") {
                receiving.consume(array.reduce(0, &+))
            } else if scenario.hasPrefix("recompute-count-where-") {
                receiving.consume(array.count { $0 & 1 == 0 })
            } else {
                print("unknown scenario \(scenario)")
                exit(2)
            }
        }
    case "array-set-element-1000":
        let array = ObservableArray(Array(0..<100_000))
        let tokens = (0..<1000).map { _ in
            array.subscribe { change in receiving.consume(change.countAfter) }
        }
        for value in 0..<count { array[value % 100_000] = value }
        withExtendedLifetime(tokens) {}
    case "array-var-set-element-1000":
        let variable = Var(Array(0..<100_000))
        let tokens = (0..<1000).map { _ in
            variable.subscribe { update in receiving.consume(update.new.count) }
        }
        for value in 0..<count { variable.modify { $0[value % 100_000] = value } }
        withExtendedLifetime(tokens) {}
    default:
        print("unknown scenario \(scenario)")
        exit(2)
    }
}
