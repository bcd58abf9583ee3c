// Standalone transforms: the heap that observing one adds, and the cost per message against a
// bare delivery. Registered by `registerStandaloneTransformBenchmarks()`.

import Benchmark
import Messaging

/// Registers the standalone-transform benchmarks.
func registerStandaloneTransformBenchmarks() {
    let system = "Messaging standalone map"

    // The bare observation, for comparison: an existing observer observes a messenger.
    registerHeapBenchmark(
        "\(system): heap held per observe of the origin itself (baseline)",
        prepare: { count in (0..<count).map { _ in (Messenger<Int>(), FreeObserver()) } },
        measured: { prepared, index in
            prepared[index].1.observe(prepared[index].0) { blackHole($0) }
        }
    )
    // An existing observer observes an existing, never observed map: what observing adds,
    // including the map's delivery table, made on its first observation.
    registerHeapBenchmark(
        "\(system): heap held per first observe of a map",
        prepare: { count in
            (0..<count).map { _ -> (Mapped<Messenger<Int>, Int>, FreeObserver) in
                (Messenger<Int>().map { $0 &+ 1 }, FreeObserver())
            }
        },
        measured: { prepared, index in
            prepared[index].1.observe(prepared[index].0) { blackHole($0) }
        }
    )
    // The same once the map has been observed before (its table exists): what each later
    // observation from nothing to one observer adds.
    registerHeapBenchmark(
        "\(system): heap held per observe of a map observed before",
        prepare: { count in
            (0..<count).map { _ -> (Mapped<Messenger<Int>, Int>, FreeObserver) in
                let mapped = Messenger<Int>().map { $0 &+ 1 }
                mapped.subscribe { _ in }.stopObserving()
                return (mapped, FreeObserver())
            }
        },
        measured: { prepared, index in
            prepared[index].1.observe(prepared[index].0) { blackHole($0) }
        }
    )

    Benchmark(
        "\(system): 1 observer (per message)",
        configuration: .init(scalingFactor: .kilo)
    ) { benchmark, channel in
        for value in 0..<1_000 { channel.send(value) }
    } setup: {
        connectStandaloneMap(observerCount: 1)
    }
    Benchmark(
        "\(system): bare messenger, 1 observer (per message, baseline)",
        configuration: .init(scalingFactor: .kilo)
    ) { benchmark, channel in
        for value in 0..<1_000 { channel.send(value) }
    } setup: {
        connectMessenger(receiverCount: 1)
    }
}

/// A messenger, a standalone map of it, and `observerCount` observers of the map.
func connectStandaloneMap(observerCount: Int) -> ConnectedChannel {
    let messenger = Messenger<Int>()
    let mapped = messenger.map { $0 &+ 1 }
    let observers = (0..<observerCount).map { _ in FreeObserver() }
    for observer in observers {
        let receiving = Receiving()
        observer.observe(mapped) { receiving.consume($0) }
    }
    return ConnectedChannel(send: { messenger.send($0) }, keepAlive: (messenger, observers))
}
