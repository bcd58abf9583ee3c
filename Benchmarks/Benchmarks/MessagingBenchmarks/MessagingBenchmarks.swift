// What delivering a value to observers costs, for Messaging and for two baselines: a plain closure
// array behind a mutex, and OpenCombine's `PassthroughSubject` with `sink` subscribers. Also what
// making and ending subscriptions costs, and how many bytes a live subscription takes.
//
// Every scenario is one `register…` function that takes the system under test as small closures
// and registers that scenario's benchmarks for it. To compare another system, call the scenario
// functions with it next to the baselines in `benchmarks` below.
//
// Send scenarios use `scalingFactor`, so their `Time (wall clock)` and `Malloc (total)` are per
// delivery (one value reaching one receiver). Subscribe and cancel scenarios measure one batch per
// iteration; `Time per operation (ns)` is that batch's time divided by its size.

import Benchmark
import Foundation
import Messaging
import OpenCombine

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// MARK: - Scenarios

/// A channel with its receivers attached; `send` delivers one value to every receiver.
struct ConnectedChannel: @unchecked Sendable {  // every system under test documents `send` as thread-safe
    let send: (Int) -> Void
    /// Whatever must stay alive for the receivers to stay subscribed.
    let keepAlive: Any
}

/// What a receiver does with a value. Each receiver has its own, and its handler captures it, as a
/// real handler captures its observer: calling such a handler from an array costs a retain and a
/// release of the captured context, which is part of what the send benchmarks compare.
final class Receiving: Sendable {
    @inline(never)
    func consume(_ value: Int) {
        blackHole(value)
    }
}

/// Sends to 1, 10 and 1,000 receivers; reported per delivery.
func registerSendBenchmarks(_ system: String, connect: @escaping (_ receiverCount: Int) -> ConnectedChannel) {
    let cases: [(receiverCount: Int, sendCount: Int, deliveries: BenchmarkScalingFactor)] = [
        (1, 1_000, .kilo),
        (10, 100, .kilo),
        (1_000, 1_000, .mega),
    ]
    for (receiverCount, sendCount, deliveries) in cases {
        precondition(receiverCount * sendCount == deliveries.rawValue)
        Benchmark(
            "\(system): send to \(receiverCount) receiver\(receiverCount == 1 ? "" : "s") (per delivery)",
            configuration: .init(scalingFactor: deliveries)
        ) { benchmark, channel in
            for value in 0..<sendCount {
                channel.send(value)
            }
        } setup: {
            connect(receiverCount)
        }
    }
}

/// Two threads send to one channel with 10 receivers at the same time; reported per delivery.
func registerConcurrentSendBenchmark(_ system: String, connect: @escaping (_ receiverCount: Int) -> ConnectedChannel) {
    let threadCount = 2
    let receiverCount = 10
    let sendCountPerThread = 50_000
    let deliveries = BenchmarkScalingFactor.mega
    precondition(threadCount * sendCountPerThread * receiverCount == deliveries.rawValue)
    Benchmark(
        "\(system): \(threadCount) threads send to \(receiverCount) receivers (per delivery)",
        configuration: .init(scalingFactor: deliveries)
    ) { benchmark, channel in
        measureOnThreads(benchmark, threadCount: threadCount) {
            for value in 0..<sendCountPerThread {
                channel.send(value)
            }
        }
    } setup: {
        connect(receiverCount)
    }
}

/// Makes `count` subscriptions to one channel, then cancels them in random order, at 10k and 100k
/// subscriptions; each phase is a separate benchmark, reported per operation.
func registerSubscribeAndCancelBenchmarks<Channel, Subscription>(
    _ system: String,
    makeChannel: @escaping () -> Channel,
    subscribe: @escaping (Channel) -> Subscription,
    cancel: @escaping (Subscription) -> Void
) {
    for count in [10_000, 100_000] {
        Benchmark("\(system): subscribe (n = \(count))", configuration: subscriptionChurnConfiguration) { benchmark in
            let channel = makeChannel()
            var subscriptions: [Subscription] = []
            subscriptions.reserveCapacity(count)
            measureBatch(benchmark, count: count) {
                for _ in 0..<count {
                    subscriptions.append(subscribe(channel))
                }
            }
        }

        Benchmark(
            "\(system): cancel in random order (n = \(count))",
            configuration: subscriptionChurnConfiguration
        ) { benchmark in
            let channel = makeChannel()
            let subscriptionsInRandomOrder = (0..<count).map { _ in subscribe(channel) }.shuffled()
            measureBatch(benchmark, count: count) {
                for subscription in subscriptionsInRandomOrder {
                    cancel(subscription)
                }
            }
        }
    }
}

/// Reports the heap that 1,000 runs of `measured` still hold when the measurement ends, and their
/// allocations, per run. `prepare` makes what the runs need, unmeasured; what `measured` returns
/// is kept alive until the end. Bytes are the sizes asked of `malloc`; the allocator's own
/// rounding and headers come on top.
func registerHeapBenchmark<Prepared, Kept>(
    _ name: String,
    prepare: @escaping (_ count: Int) -> Prepared,
    measured: @escaping (_ prepared: Prepared, _ index: Int) -> Kept
) {
    let count = 1_000
    Benchmark(
        name,
        configuration: .init(
            metrics: [.memoryLeakedBytes, .mallocCountTotal],
            scalingFactor: .kilo,
            maxDuration: .seconds(1),
            maxIterations: 100
        )
    ) { benchmark in
        let prepared = prepare(count)
        var kept: [Kept] = []
        kept.reserveCapacity(count)
        benchmark.startMeasurement()
        for index in 0..<count {
            kept.append(measured(prepared, index))
        }
        benchmark.stopMeasurement()
        withExtendedLifetime((prepared, kept)) {}
    }
}

/// The heap held per live subscription to one channel.
func registerMemoryBenchmark<Channel, Subscription>(
    _ system: String,
    makeChannel: @escaping () -> Channel,
    subscribe: @escaping (Channel) -> Subscription
) {
    registerHeapBenchmark(
        "\(system): heap held per live subscription",
        prepare: { _ in makeChannel() },
        measured: { channel, _ in subscribe(channel) }
    )
}

// MARK: - Measuring

let timePerOperation = BenchmarkMetric.custom("Time per operation (ns)", useScalingFactor: false)

var subscriptionChurnConfiguration: Benchmark.Configuration {
    .init(
        metrics: [.wallClock, .mallocCountTotal, timePerOperation],
        units: [timePerOperation: .count],
        maxDuration: .seconds(2),
        maxIterations: 100
    )
}

/// Measures one batch of `count` operations and records its wall-clock time per operation.
func measureBatch(_ benchmark: Benchmark, count: Int, _ operations: () -> Void) {
    let clock = ContinuousClock()
    benchmark.startMeasurement()
    let start = clock.now
    operations()
    let elapsed = start.duration(to: clock.now)
    benchmark.stopMeasurement()
    let (seconds, attoseconds) = (elapsed / count).components
    let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    benchmark.measurement(timePerOperation, Int(nanoseconds.rounded()))
}

/// Runs `work` on `threadCount` new threads that start together; measures from the start until the
/// last one finishes. Creating the threads is not measured.
func measureOnThreads(_ benchmark: Benchmark, threadCount: Int, _ work: @escaping @Sendable () -> Void) {
    let ready = DispatchSemaphore(value: 0)
    let start = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    for _ in 0..<threadCount {
        Thread {
            ready.signal()
            start.wait()
            work()
            finished.signal()
        }
        .start()
    }
    for _ in 0..<threadCount {
        ready.wait()
    }
    benchmark.startMeasurement()
    for _ in 0..<threadCount {
        start.signal()
    }
    for _ in 0..<threadCount {
        finished.wait()
    }
    benchmark.stopMeasurement()
}

// MARK: - Baseline: closure array behind a mutex

/// A heap-allocated `pthread_mutex_t`, as the baselines use it: a pointer, no object of its own.
/// Its owner calls `destroy()` in its `deinit`.
struct PthreadMutex {
    private let pointer: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: pthread_mutex_t())
        pthread_mutex_init(pointer, nil)
    }

    func lock() { pthread_mutex_lock(pointer) }

    func unlock() { pthread_mutex_unlock(pointer) }

    func destroy() {
        pthread_mutex_destroy(pointer)
        pointer.deallocate()
    }
}

/// The simplest thread-safe broadcaster: handlers in an array behind a mutex. `send` copies the array
/// under the lock and calls the handlers after unlocking.
final class LockedClosureList: @unchecked Sendable {  // `handlers` is guarded by `mutex`
    private let mutex = PthreadMutex()
    private var handlers: [(Int) -> Void] = []

    deinit {
        mutex.destroy()
    }

    func append(_ handler: @escaping (Int) -> Void) {
        mutex.lock()
        handlers.append(handler)
        mutex.unlock()
    }

    func send(_ value: Int) {
        mutex.lock()
        let snapshot = handlers
        mutex.unlock()
        for handler in snapshot {
            handler(value)
        }
    }
}

func connectLockedClosureList(receiverCount: Int) -> ConnectedChannel {
    let list = LockedClosureList()
    for _ in 0..<receiverCount {
        let receiving = Receiving()
        list.append { receiving.consume($0) }
    }
    return ConnectedChannel(send: list.send, keepAlive: list)
}

/// The same list with cancellable entries, for the subscribe and cancel baselines: a dictionary
/// from token to handler behind the mutex.
final class LockedClosureTable: @unchecked Sendable {  // `handlers` and `nextToken` are guarded by `mutex`
    private let mutex = PthreadMutex()
    private var handlers: [Int: (Int) -> Void] = [:]
    private var nextToken = 0

    deinit {
        mutex.destroy()
    }

    func subscribe(_ handler: @escaping (Int) -> Void) -> Int {
        mutex.lock()
        defer { mutex.unlock() }
        nextToken += 1
        handlers[nextToken] = handler
        return nextToken
    }

    func cancel(_ token: Int) {
        mutex.lock()
        let removed = handlers.removeValue(forKey: token)
        mutex.unlock()
        withExtendedLifetime(removed) {}
    }
}

// MARK: - Baseline: OpenCombine

func connectPassthroughSubject(receiverCount: Int) -> ConnectedChannel {
    let subject = PassthroughSubject<Int, Never>()
    let subscriptions = (0..<receiverCount).map { _ in
        let receiving = Receiving()
        return subject.sink { receiving.consume($0) }
    }
    return ConnectedChannel(send: { subject.send($0) }, keepAlive: subscriptions)
}

// MARK: - Messaging

/// Observers that each observe the messenger once, with a handler that does nothing observable.
func connectMessenger(receiverCount: Int) -> ConnectedChannel {
    let messenger = Messenger<Int>()
    let observers = (0..<receiverCount).map { _ in FreeObserver() }
    for observer in observers {
        let receiving = Receiving()
        observer.observe(messenger) { receiving.consume($0) }
    }
    return ConnectedChannel(send: { messenger.send($0) }, keepAlive: (messenger, observers))
}

// MARK: - Transform chains

/// Sends through a chain of three transforms (map, filter that lets everything through, map) to
/// one receiver and to each of 1,000; reported per delivery, against the bare send to as many.
func registerChainBenchmark(_ system: String, connect: @escaping (_ receiverCount: Int) -> ConnectedChannel) {
    let cases: [(receiverCount: Int, deliveries: BenchmarkScalingFactor)] = [(1, .kilo), (1_000, .mega)]
    for (receiverCount, deliveries) in cases {
        Benchmark(
            "\(system): map, filter, map to \(receiverCount) receiver\(receiverCount == 1 ? "" : "s") (per delivery)",
            configuration: .init(scalingFactor: deliveries)
        ) { benchmark, channel in
            for value in 0..<1_000 {
                channel.send(value)
            }
        } setup: {
            connect(receiverCount)
        }
    }
}

func connectPassthroughSubjectChain(receiverCount: Int) -> ConnectedChannel {
    let subject = PassthroughSubject<Int, Never>()
    let subscriptions = (0..<receiverCount).map { _ in
        let receiving = Receiving()
        return subject.map { $0 &+ 1 }.filter { $0 != Int.min }.map { $0 &* 2 }.sink { receiving.consume($0) }
    }
    return ConnectedChannel(send: { subject.send($0) }, keepAlive: subscriptions)
}

func connectMessengerChain(receiverCount: Int) -> ConnectedChannel {
    let messenger = Messenger<Int>()
    let observers = (0..<receiverCount).map { _ in FreeObserver() }
    for observer in observers {
        let receiving = Receiving()
        observer.observe(messenger).map { $0 &+ 1 }.filter { $0 != Int.min }.map { $0 &* 2 }.receive {
            receiving.consume($0)
        }
    }
    return ConnectedChannel(send: { messenger.send($0) }, keepAlive: (messenger, observers))
}

// MARK: - Benchmarks

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        maxDuration: .seconds(1),
        maxIterations: 1_000
    )

    let closureArray = "Closure array + mutex"
    let openCombine = "OpenCombine PassthroughSubject"
    let messaging = "Messaging Messenger"

    registerSendBenchmarks(closureArray, connect: connectLockedClosureList)
    registerSendBenchmarks(openCombine, connect: connectPassthroughSubject)
    registerSendBenchmarks(messaging, connect: connectMessenger)

    registerChainBenchmark(openCombine, connect: connectPassthroughSubjectChain)
    registerChainBenchmark(messaging, connect: connectMessengerChain)

    registerConcurrentSendBenchmark(closureArray, connect: connectLockedClosureList)
    registerConcurrentSendBenchmark(openCombine, connect: connectPassthroughSubject)
    registerConcurrentSendBenchmark(messaging, connect: connectMessenger)

    // A token per subscription, like `sink`: `subscribe` makes the free observer that owns it.
    registerSubscribeAndCancelBenchmarks(
        "\(messaging) token",
        makeChannel: { Messenger<Int>() },
        subscribe: { messenger in messenger.subscribe { blackHole($0) } },
        cancel: { token in token.stopObserving() }
    )
    registerMemoryBenchmark(
        "\(messaging) token",
        makeChannel: { Messenger<Int>() },
        subscribe: { messenger in messenger.subscribe { blackHole($0) } }
    )
    registerMemoryBenchmark(
        openCombine,
        makeChannel: { PassthroughSubject<Int, Never>() },
        subscribe: { subject in subject.sink { blackHole($0) } }
    )
    registerObserveAndStopBenchmarks(messaging)

    registerSubscribeAndCancelBenchmarks(
        closureArray,
        makeChannel: { LockedClosureTable() },
        subscribe: { table in (table, table.subscribe { blackHole($0) }) },
        cancel: { subscription in subscription.0.cancel(subscription.1) }
    )
    registerObserveMemoryBenchmark(messaging)
    registerEmptyMessengerBenchmark()
    registerVariableSetBenchmarks(messaging)
    registerAmISubscribedBenchmarks(messaging)
    registerStandaloneTransformBenchmarks()
    registerTimeBenchmarks()
    registerPromiseBenchmarks()
    registerAsyncSequenceBenchmarks()
    registerObservationBenchmarks()

    registerSubscribeAndCancelBenchmarks(
        openCombine,
        makeChannel: { PassthroughSubject<Int, Never>() },
        subscribe: { subject in subject.sink { blackHole($0) } },
        cancel: { subscription in subscription.cancel() }
    )
}

/// Heap held by one more observation of a messenger, by observers made before the measurement.
func registerObserveMemoryBenchmark(_ system: String) {
    registerHeapBenchmark(
        "\(system): heap held per observe by an existing observer",
        prepare: { count in (messenger: Messenger<Int>(), observers: (0..<count).map { _ in FreeObserver() }) },
        measured: { prepared, index in prepared.observers[index].observe(prepared.messenger) { blackHole($0) } }
    )
}

/// Heap held by a messenger that nobody observes.
func registerEmptyMessengerBenchmark() {
    registerHeapBenchmark(
        "Messaging Messenger: heap held by a messenger nobody observes",
        prepare: { _ in () },
        measured: { _, _ in Messenger<Int>() }
    )
}

/// Setting a variable's value with one observer, against `send` on a messenger with one.
func registerVariableSetBenchmarks(_ system: String) {
    Benchmark(
        "\(system): Var value set, 1 observer (per set)",
        configuration: .init(scalingFactor: .kilo)
    ) { benchmark, observed in
        let variable = observed.variable
        for value in 1...1_000 {
            variable.value = value
        }
        variable.value = 0
    } setup: { () -> (variable: Var<Int>, observer: FreeObserver) in
        let variable = Var(0)
        let observer = FreeObserver()
        let receiving = Receiving()
        observer.observe(variable) { receiving.consume($0.new) }
        return (variable, observer)
    }
}

/// A messenger and `count` free observers that observe it once each.
func observingObservers(_ count: Int) -> (Messenger<Int>, [FreeObserver]) {
    let messenger = Messenger<Int>()
    let observers = (0..<count).map { _ in FreeObserver() }
    for observer in observers {
        observer.observe(messenger) { blackHole($0) }
    }
    return (messenger, observers)
}

/// `amISubscribed` asked of an observable for observers in random order, at 10k and 100k.
func registerAmISubscribedBenchmarks(_ system: String) {
    for count in [10_000, 100_000] {
        Benchmark(
            "\(system): amISubscribed in random order (n = \(count))",
            configuration: subscriptionChurnConfiguration
        ) { benchmark in
            let (messenger, observers) = observingObservers(count)
            let shuffled = observers.shuffled()
            measureBatch(benchmark, count: count) {
                for observer in shuffled {
                    blackHole(messenger.amISubscribed(observer))
                }
            }
            withExtendedLifetime(observers) {}
        }
    }
}

/// `observe` and `stopObserving` by observers made before the measurement, at 10k and 100k.
func registerObserveAndStopBenchmarks(_ system: String) {
    for count in [10_000, 100_000] {
        Benchmark("\(system): observe (n = \(count))", configuration: subscriptionChurnConfiguration) { benchmark in
            let messenger = Messenger<Int>()
            let observers = (0..<count).map { _ in FreeObserver() }
            measureBatch(benchmark, count: count) {
                for observer in observers {
                    observer.observe(messenger) { blackHole($0) }
                }
            }
            withExtendedLifetime(observers) {}
        }

        Benchmark(
            "\(system): stopObserving in random order (n = \(count))",
            configuration: subscriptionChurnConfiguration
        ) { benchmark in
            let (messenger, observers) = observingObservers(count)
            let shuffled = observers.shuffled()
            measureBatch(benchmark, count: count) {
                for observer in shuffled {
                    observer.stopObserving(messenger)
                }
            }
            withExtendedLifetime(observers) {}
        }
    }
}
