// Debounce and throttle in the steady state: what one more message of a burst costs, beside a
// bare delivery. Registered by `registerTimeBenchmarks()`.
//
// The interval is an hour, so every message of every iteration falls in one burst: a debounce
// restarts its countdown (the one task of the burst was started by the first message, in setup),
// and a throttle drops the message (the leading one went on in setup). `Malloc (total)` per
// message is the figure to read: the steady state allocates nothing.

import Benchmark
import Messaging

/// Registers the debounce and throttle benchmarks.
func registerTimeBenchmarks() {
    let system = "Messaging time"
    let interval = Duration.seconds(3_600)

    registerTimeBenchmark("\(system): standalone debounce, 1 observer (per message)") {
        messenger, observer, receiving in
        let debounced = messenger.debounce(for: interval)
        observer.observe(debounced) { receiving.consume($0) }
        return debounced
    }
    registerTimeBenchmark("\(system): standalone throttle, 1 observer (per message)") {
        messenger, observer, receiving in
        let throttled = messenger.throttle(for: interval)
        observer.observe(throttled) { receiving.consume($0) }
        return throttled
    }
    registerTimeBenchmark("\(system): chain debounce stage, 1 observer (per message)") {
        messenger, observer, receiving in
        observer.observe(messenger).debounce(for: interval).receive { receiving.consume($0) }
        return nil
    }
    registerTimeBenchmark("\(system): chain throttle stage, 1 observer (per message)") {
        messenger, observer, receiving in
        observer.observe(messenger).throttle(for: interval).receive { receiving.consume($0) }
        return nil
    }
}

/// One benchmark: a messenger, one observer connected through `connect`, and 1,000 messages per
/// iteration after a first one sent in setup.
private func registerTimeBenchmark(
    _ name: String,
    connect: @escaping @Sendable (Messenger<Int>, FreeObserver, Receiving) -> AnyObject?
) {
    Benchmark(name, configuration: .init(scalingFactor: .kilo)) { benchmark, channel in
        for value in 0..<1_000 { channel.send(value) }
    } setup: { () -> ConnectedChannel in
        let messenger = Messenger<Int>()
        let observer = FreeObserver()
        let stage = connect(messenger, observer, Receiving())
        // The burst's first message: it starts the debounce's one task, or goes through the
        // throttle.
        messenger.send(-1)
        return ConnectedChannel(send: { messenger.send($0) }, keepAlive: (messenger, observer, stage as Any))
    }
}
