// Compares the mirror with raw pg_notify on the same server, in the same run:
// latency at low load (one message at a time, the three kinds taking turns, back to back and
// after a pause of BENCHMARK_LATENCY_PAUSE_MS) and throughput of bursts. With
// BENCHMARK_SOAK_SECONDS set, soaks the mirror instead: BENCHMARK_SOAK_RATE messages a second
// (1,000 unless set) in the logged mode (or BENCHMARK_SOAK_MODE=plain), with the process's
// resident memory every 30 seconds. With BENCHMARK_SOAK_CUT_EVERY=N as well, the receiving
// mirror's connections are terminated on the server every N seconds, and the soak counts the
// messages that arrived out of order, twice or not at all, and the gaps in what arrived.
//
//     bash .ci/postgres-tests --run swift run -c release --package-path Integrations/PostgresMessaging \
//         -Xswiftc -warnings-as-errors PostgresMessagingBenchmark
//
// Reads the server's port from POSTGRES_MESSAGING_TEST_PORT.
import Foundation
import Logging
import Messaging
import PostgresMessaging
import PostgresNIO

struct Tick: Codable, Sendable {
    var sender: String
    var number: Int
}

/// What every measurement needs.
struct Setup: Sendable {
    var postgres: PostgresConnection.Configuration
    var logger: Logger
    var latencyRounds: Int
    var burstSize: Int
}

struct Result {
    var name: String
    var p50: Duration
    var p99: Duration
    var throughput: Double
}

func percentile(_ sorted: [Duration], _ fraction: Double) -> Duration {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

/// Raw pg_notify: one connection notifies, another listens.
final class RawPair {
    let setup: Setup
    let channel = "bench_raw"
    let publisher: PostgresConnection
    let listener: PostgresConnection
    let listening: Task<Void, any Error>
    var arrivals: AsyncStream<Void>.Iterator

    init(_ setup: Setup) async throws {
        self.setup = setup
        let channel = channel
        publisher = try await PostgresConnection.connect(configuration: setup.postgres, id: 1, logger: setup.logger)
        let listener = try await PostgresConnection.connect(
            configuration: setup.postgres, id: 2, logger: setup.logger)
        self.listener = listener
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        let (ready, isReady) = AsyncStream<Void>.makeStream()
        listening = Task {
            try await listener.listen(on: channel) { notifications in
                isReady.yield()
                for try await _ in notifications { arrived.yield() }
            }
        }
        var readyIterator = ready.makeAsyncIterator()
        await readyIterator.next()
        self.arrivals = arrivals.makeAsyncIterator()
    }

    /// Notifies once and waits for the notification.
    func oneWay(_ number: Int) async throws -> Duration {
        let payload = #"{"sender":"raw","number":\#(number)}"#
        let started = ContinuousClock.now
        try await publisher.query("SELECT pg_notify(\(channel), \(payload))", logger: setup.logger)
        await arrivals.next()
        return ContinuousClock.now - started
    }

    /// Notifies `burstSize` messages, 1,000 per call, and returns how many arrived per second.
    func burst() async throws -> Double {
        let burstSize = setup.burstSize
        let started = ContinuousClock.now
        var sent = 0
        while sent < burstSize {
            let payloads = (sent..<min(burstSize, sent + 1_000)).map { #"{"sender":"raw","number":\#($0)}"# }
            let rows = try await publisher.query(
                "SELECT pg_notify(\(channel), p) FROM unnest(\(payloads)::text[]) WITH ORDINALITY AS t(p, n) ORDER BY n",
                logger: setup.logger
            )
            for try await _ in rows {}
            sent += payloads.count
        }
        for _ in 0..<burstSize { await arrivals.next() }
        return Double(burstSize) / (microseconds(ContinuousClock.now - started) / 1e6)
    }

    func close() async throws {
        listening.cancel()
        try await publisher.close()
        try await listener.close()
    }
}

/// Two mirrors on one channel: A sends through its messenger, B's observer receives.
final class MirrorPair {
    let setup: Setup
    let a: PostgresMirror<Tick>
    let b: PostgresMirror<Tick>
    let token: ObservationToken
    let runs: [Task<Void, any Error>]
    var arrivals: AsyncStream<Void>.Iterator

    init(_ setup: Setup, _ mode: PostgresMirrorMode, channel: String) async throws {
        self.setup = setup
        var configuration = PostgresMirrorConfiguration(connection: setup.postgres, mode: mode)
        configuration.incomingCapacity = setup.burstSize * 2
        configuration.outgoingCapacity = setup.burstSize * 2
        let a = try PostgresMirror(
            Messenger<Tick>(), channel: channel, configuration: configuration, logger: setup.logger)
        let b = try PostgresMirror(
            Messenger<Tick>(), channel: channel, configuration: configuration, logger: setup.logger)
        (self.a, self.b) = (a, b)
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        token = b.messenger.subscribe { _ in arrived.yield() }
        runs = [Task { try await a.run() }, Task { try await b.run() }]
        while a.status.value.connection != .connected || b.status.value.connection != .connected {
            try await Task.sleep(for: .milliseconds(10))
        }
        self.arrivals = arrivals.makeAsyncIterator()
        // The publishing connection opens with the first message: not part of a measurement.
        a.messenger.send(Tick(sender: "a", number: -1))
        await self.arrivals.next()
    }

    /// Sends once through A's messenger and waits for B's observer.
    func oneWay(_ number: Int) async -> Duration {
        let started = ContinuousClock.now
        a.messenger.send(Tick(sender: "a", number: number))
        await arrivals.next()
        return ContinuousClock.now - started
    }

    /// Sends `burstSize` messages at once and returns how many arrived per second.
    func burst() async -> Double {
        let burstSize = setup.burstSize
        let started = ContinuousClock.now
        for number in 0..<burstSize { a.messenger.send(Tick(sender: "a", number: number)) }
        for _ in 0..<burstSize { await arrivals.next() }
        return Double(burstSize) / (microseconds(ContinuousClock.now - started) / 1e6)
    }

    func close() async throws {
        a.shutDown()
        b.shutDown()
        for run in runs { try await run.value }
        withExtendedLifetime(token) {}
        precondition(
            b.counters.droppedIncoming == 0 && a.counters.droppedOutgoing == 0, "the benchmark dropped messages")
    }
}

/// The one-at-a-time latencies of raw pg_notify and of both modes. The messages take turns, one
/// of each per round, so that a busy moment of the machine falls on all three alike. With a
/// pause, each waits for a quiet machine first, as messages at low load do; without one, each
/// starts as the previous one arrives, while the threads that carried it are still awake.
func measureLatencies(
    _ pairs: (raw: RawPair, plain: MirrorPair, logged: MirrorPair),
    rounds: Int,
    pause: Duration
) async throws -> [[Duration]] {
    var latencies: [[Duration]] = [[], [], []]
    for number in 0..<rounds {
        if pause > .zero { try await Task.sleep(for: pause) }
        latencies[0].append(try await pairs.raw.oneWay(number))
        if pause > .zero { try await Task.sleep(for: pause) }
        latencies[1].append(await pairs.plain.oneWay(number))
        if pause > .zero { try await Task.sleep(for: pause) }
        latencies[2].append(await pairs.logged.oneWay(number))
    }
    return latencies.map { $0.sorted() }
}

/// Latency (back to back, then after a pause) and throughput of raw pg_notify and both modes.
func measure(_ setup: Setup, pause: Duration) async throws -> (backToBack: [Result], paused: [Result]) {
    let pairs = (
        raw: try await RawPair(setup),
        plain: try await MirrorPair(setup, .plain, channel: "bench_plain"),
        logged: try await MirrorPair(setup, .logged(retention: .seconds(600)), channel: "bench_logged")
    )
    let backToBack = try await measureLatencies(pairs, rounds: setup.latencyRounds, pause: .zero)
    let paused = try await measureLatencies(pairs, rounds: setup.latencyRounds, pause: pause)
    let throughputs = [try await pairs.raw.burst(), await pairs.plain.burst(), await pairs.logged.burst()]
    try await pairs.raw.close()
    try await pairs.plain.close()
    try await pairs.logged.close()
    let names = ["raw pg_notify", "mirror, plain", "mirror, logged"]
    func results(_ latencies: [[Duration]]) -> [Result] {
        (0..<3).map { index in
            Result(
                name: names[index],
                p50: percentile(latencies[index], 0.5),
                p99: percentile(latencies[index], 0.99),
                throughput: throughputs[index]
            )
        }
    }
    return (results(backToBack), results(paused))
}

/// The process's resident memory in MiB, from `/proc/self/statm`; `nil` where there is none.
func residentMiB() -> Double? {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Double(fields[1]) else { return nil }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

/// Two mirrors on one channel for `seconds`: A sends `rate` messages a second (ten every
/// hundredth of a second), B counts them; the resident memory of the process, which holds both,
/// is sampled every `sampleEvery` seconds.
func soak(
    _ setup: Setup, _ mode: PostgresMirrorMode, seconds: Int, rate: Int, sampleEvery: Int, cutEvery: Int?
) async throws {
    let configuration = PostgresMirrorConfiguration(connection: setup.postgres, mode: mode)
    // The receiving mirror's connections carry a name of their own, so that a cut finds them.
    let receiverName = "bench_soak_receiver"
    var receiverConfiguration = configuration
    receiverConfiguration.connection.options.additionalStartupParameters = [("application_name", receiverName)]
    let channel = "bench_soak"
    let a = try PostgresMirror(Messenger<Tick>(), channel: channel, configuration: configuration, logger: setup.logger)
    let b = try PostgresMirror(
        Messenger<Tick>(), channel: channel, configuration: receiverConfiguration, logger: setup.logger)
    let received = Counter()
    let token = b.messenger.subscribe { tick in received.add(tick.number) }
    let runs = [Task { try await a.run() }, Task { try await b.run() }]
    while a.status.value.connection != .connected || b.status.value.connection != .connected {
        try await Task.sleep(for: .milliseconds(10))
    }

    let cutting = cutEvery.map { every in Task { try await cutRepeatedly(setup, named: receiverName, every: every) } }
    print("soak: \(rate) msg/s for \(seconds) s, \(mode)" + (cutEvery.map { ", a cut every \($0) s" } ?? ""))
    print("     s      sent  received   RSS MiB")
    let perTick = max(1, rate / 100)
    let clock = ContinuousClock()
    let start = clock.now
    var deadline = start
    var sent = 0
    var nextSample = 0
    var samples: [Double] = []
    while true {
        let elapsed = Int((clock.now - start).components.seconds)
        if elapsed >= nextSample {
            let rss = residentMiB()
            if let rss { samples.append(rss) }
            print(
                String(format: "%6d  %8d  %8d  %8.1f", elapsed, sent, received.value, rss ?? -1))
            nextSample += sampleEvery
        }
        if elapsed >= seconds { break }
        for _ in 0..<perTick {
            a.messenger.send(Tick(sender: "a", number: sent))
            sent += 1
        }
        deadline += .milliseconds(10)
        try await clock.sleep(until: deadline)
    }
    // Everything sent arrives within a few seconds, or the line below says how much did not.
    let settle = clock.now + .seconds(10)
    var cuts: Int?
    if let cutting {
        cutting.cancel()
        cuts = try await cutting.value
    }
    while received.value < sent, clock.now < settle { try await Task.sleep(for: .milliseconds(50)) }
    a.shutDown()
    b.shutDown()
    for run in runs { try await run.value }
    withExtendedLifetime(token) {}

    print("sent \(sent), received \(received.value), dropped incoming \(b.counters.droppedIncoming)")
    let order = received.order
    print(
        "out of order \(order.late), gaps \(order.afterGap), never received \(sent - order.distinct),"
            + " received twice \(received.value - order.distinct), possible gaps \(b.status.value.possibleGapCount)"
            + (cuts.map { ", connections cut \($0)" } ?? ""))
    // The first minute warms the allocator and the connections up; the rest must stay flat.
    let warm = samples.dropFirst(max(1, 60 / sampleEvery))
    if let first = warm.first, let last = warm.last, let peak = warm.max() {
        print(
            String(
                format: "RSS after the first minute %.1f MiB, at the end %.1f MiB, at most %.1f MiB", first, last, peak)
        )
    }
}

/// Terminates the server's backends named `name` every `every` seconds until cancelled.
///
/// - Returns: How many backends it terminated.
func cutRepeatedly(_ setup: Setup, named name: String, every: Int) async throws -> Int {
    var cut = 0
    while !Task.isCancelled {
        do {
            try await Task.sleep(for: .seconds(every))
        } catch {
            break
        }
        let admin = try await PostgresConnection.connect(configuration: setup.postgres, id: 9, logger: setup.logger)
        let rows = try await admin.query(
            "SELECT count(*)::bigint FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(name)) AS cut",
            logger: setup.logger)
        for try await count in rows.decode(Int64.self) { cut += Int(count) }
        try await admin.close()
    }
    return cut
}

/// What the observer's handler records on the mirror's thread and the soak loop reads: how many
/// messages arrived, how many came after a later one (late) or after a skipped number (the first
/// after a gap), and how many distinct numbers arrived.
///
/// The numbers seen are kept as bits, 8 bytes per 64 messages (75 KB after 600,000), so that
/// the soak's resident memory is the mirror's: a `Set` of them grew by 8 MiB in ten minutes.
// Every `var` is guarded by `_lock`.
final class Counter: @unchecked Sendable {
    private let _lock = NSLock()
    private var _count = 0
    private var _next = 0
    private var _late = 0
    private var _afterGap = 0
    private var _seen: [UInt64] = []
    private var _distinct = 0

    func add(_ number: Int) {
        _lock.withLock {
            _count += 1
            if number < _next {
                _late += 1
            } else {
                if number > _next { _afterGap += 1 }
                _next = number + 1
            }
            let word = number >> 6
            if word >= _seen.count { _seen.append(contentsOf: repeatElement(0, count: word - _seen.count + 1)) }
            let bit: UInt64 = 1 << UInt64(number & 63)
            if _seen[word] & bit == 0 {
                _seen[word] |= bit
                _distinct += 1
            }
        }
    }

    var value: Int { _lock.withLock { _count } }

    /// The messages that came after a later one, those that came first after a gap, and how many
    /// numbers arrived.
    var order: (late: Int, afterGap: Int, distinct: Int) {
        _lock.withLock { (_late, _afterGap, _distinct) }
    }
}

@main
enum BenchmarkCommand {
    static func main() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let port = environment["POSTGRES_MESSAGING_TEST_PORT"].flatMap({ Int($0) }) else {
            print("Set POSTGRES_MESSAGING_TEST_PORT, or run through `bash .ci/postgres-tests --run ...`.")
            exit(2)
        }
        let latencyRounds = Int(environment["BENCHMARK_LATENCY_ROUNDS"] ?? "") ?? 1_000
        let burstSize = Int(environment["BENCHMARK_BURST_SIZE"] ?? "") ?? 100_000

        var logger = Logger(label: "PostgresMessagingBenchmark")
        logger.logLevel = .error

        let postgres = PostgresConnection.Configuration(
            host: environment["POSTGRES_MESSAGING_TEST_HOST"] ?? "127.0.0.1",
            port: port,
            username: "postgres",
            password: nil,
            database: "postgres",
            tls: .disable
        )

        let setup = Setup(postgres: postgres, logger: logger, latencyRounds: latencyRounds, burstSize: burstSize)
        if let seconds = environment["BENCHMARK_SOAK_SECONDS"].flatMap({ Int($0) }) {
            let rate = Int(environment["BENCHMARK_SOAK_RATE"] ?? "") ?? 1_000
            let mode: PostgresMirrorMode =
                environment["BENCHMARK_SOAK_MODE"] == "plain" ? .plain : .logged(retention: .seconds(600))
            let cutEvery = environment["BENCHMARK_SOAK_CUT_EVERY"].flatMap { Int($0) }
            try await soak(setup, mode, seconds: seconds, rate: rate, sampleEvery: 30, cutEvery: cutEvery)
            return
        }
        let pauseMilliseconds = Int(environment["BENCHMARK_LATENCY_PAUSE_MS"] ?? "") ?? 2
        let measured = try await measure(setup, pause: .milliseconds(pauseMilliseconds))

        print(
            "\(latencyRounds) one-at-a-time messages of each kind, taking turns, for latency; bursts of \(burstSize) for throughput"
        )
        for (title, results) in [
            ("back to back", measured.backToBack), ("after a pause of \(pauseMilliseconds) ms", measured.paused),
        ] {
            print("\nlatency \(title)")
            print("name              p50 µs    p99 µs      msg/s")
            for result in results {
                print(
                    result.name.padding(toLength: 16, withPad: " ", startingAt: 0),
                    String(
                        format: "%8.0f  %8.0f  %9.0f",
                        microseconds(result.p50), microseconds(result.p99), result.throughput
                    )
                )
            }
            let (raw, plain, logged) = (results[0], results[1], results[2])
            print(
                String(
                    format: "plain p50 / raw p50: %.2f (bar: at most 1.20); logged p50 / plain p50: %.2f",
                    microseconds(plain.p50) / microseconds(raw.p50), microseconds(logged.p50) / microseconds(plain.p50)
                )
            )
        }
        let throughputs = measured.backToBack.map(\.throughput)
        print("")
        print(String(format: "plain burst: %.0f msg/s (bar: at least 30000)", throughputs[1]))
        print(String(format: "plain msg/s / logged msg/s: %.2f (bar: at most 2.00)", throughputs[1] / throughputs[2]))
    }
}
