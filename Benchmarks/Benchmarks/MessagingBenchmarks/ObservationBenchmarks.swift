// What telling Apple's Observation framework about a change costs: a `Var` read inside
// `withObservationTracking` next to an `@Observable` property read the same way, and the sets that
// no tracking scope waits for.

import Benchmark
import Messaging

#if canImport(Observation)
import Observation

/// An Observation model with one property, for comparison with a `Var`.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable
final class ObservedCounter {
    var value = 0
}

/// Registers the Observation benchmarks; each reports per change or per set (1,000 per iteration).
func registerObservationBenchmarks() {
    guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
    let perThousand = Benchmark.Configuration(scalingFactor: .kilo)

    // One tracking scope per change, as a view that redraws after every change has.
    Benchmark("Observation tracking: Var change seen by one scope (per change)", configuration: perThousand) {
        benchmark,
        variable in
        for value in 1...1_000 {
            let read = withObservationTracking {
                variable.value
            } onChange: {
                blackHole(0)
            }
            blackHole(read)
            variable.value = value
        }
        variable.value = 0
    } setup: {
        Var(0)
    }

    Benchmark(
        "Observation tracking: @Observable change seen by one scope (per change)",
        configuration: perThousand
    ) { benchmark, counter in
        for value in 1...1_000 {
            let read = withObservationTracking {
                counter.value
            } onChange: {
                blackHole(0)
            }
            blackHole(read)
            counter.value = value
        }
        counter.value = 0
    } setup: {
        ObservedCounter()
    }

    // Sets that no scope waits for: a variable read once before (so its registrar exists), and one
    // never read through `value` (no registrar: the plain cost of a set).
    Benchmark("Observation tracking: Var set, read before, no scope (per set)", configuration: perThousand) {
        benchmark,
        variable in
        for value in 1...1_000 {
            variable.value = value
        }
        variable.value = 0
    } setup: { () -> Var<Int> in
        let variable = Var(0)
        blackHole(variable.value)
        return variable
    }

    Benchmark("Observation tracking: Var set, never read, no scope (per set)", configuration: perThousand) {
        benchmark,
        variable in
        for value in 1...1_000 {
            variable.value = value
        }
        variable.value = 0
    } setup: {
        Var(0)
    }

    Benchmark("Observation tracking: @Observable set, no scope (per set)", configuration: perThousand) {
        benchmark,
        counter in
        for value in 1...1_000 {
            counter.value = value
        }
        counter.value = 0
    } setup: {
        ObservedCounter()
    }

    // Reads outside any scope: the bridge's `access` call against the plain read of a model.
    Benchmark("Observation tracking: Var read, no scope (per read)", configuration: perThousand) {
        benchmark,
        variable in
        for _ in 1...1_000 {
            blackHole(variable.value)
        }
    } setup: {
        Var(0)
    }

    Benchmark("Observation tracking: @Observable read, no scope (per read)", configuration: perThousand) {
        benchmark,
        counter in
        for _ in 1...1_000 {
            blackHole(counter.value)
        }
    } setup: {
        ObservedCounter()
    }
}
#else
/// Observation is not available here: nothing to register.
func registerObservationBenchmarks() {}
#endif
