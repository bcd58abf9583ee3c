// What GeneralObserver's subscription bookkeeping costs as the number of observers grows, with a bare
// `Dictionary` alongside for reference.
//
// Each benchmark iteration runs one batch of `count` operations. Only the batch is measured: observers
// are created, subscribed and shuffled before `startMeasurement()` and freed after `stopMeasurement()`.
// `Time (wall clock)` and `Malloc (total)` cover the whole batch; `Time per operation (ns)` is the
// batch's wall-clock time divided by `count`, the figure to compare across sizes (it stays flat when
// the cost grows linearly with the number of operations).

import Benchmark
import GeneralObserver

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

final class BenchmarkedObservable: GeneralObservable {
    let subscriptionLedger = SubscriptionLedger()
}

final class TrackingObserver: GeneralTrackingSubscriber {
    let subscriptionLedger = SubscriptionLedger()
}

struct ValueObserver: GeneralSubscriber {
    let uuid = UUID()
}

let observerCounts = [1_000, 10_000, 100_000]

let timePerOperation = BenchmarkMetric.custom("Time per operation (ns)", useScalingFactor: false)

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

/// An observable with `count` new tracking observers subscribed, and the observers in the order to visit them in.
func observableWithTrackingObservers(
    count: Int,
    visitInRandomOrder: Bool
) -> (observable: BenchmarkedObservable, observersToVisit: [TrackingObserver]) {
    let observable = BenchmarkedObservable()
    let observers = (0..<count).map { _ in TrackingObserver() }
    for observer in observers {
        observable.subscribe(observer)
    }
    return (observable, visitInRandomOrder ? observers.shuffled() : observers)
}

/// A dictionary of `count` random keys, and its keys in random order.
func tableWithRandomKeys(count: Int) -> (table: [UUID: Int], keysInRandomOrder: [UUID]) {
    let keys = (0..<count).map { _ in UUID() }
    return (Dictionary(uniqueKeysWithValues: zip(keys, 0...)), keys.shuffled())
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, timePerOperation],
        units: [timePerOperation: .count],
        maxDuration: .seconds(2),
        maxIterations: 500
    )

    for count in observerCounts {
        Benchmark("Subscribe tracking observers (n = \(count))") { benchmark in
            let observable = BenchmarkedObservable()
            let observers = (0..<count).map { _ in TrackingObserver() }
            measureBatch(benchmark, count: count) {
                for observer in observers {
                    observable.subscribe(observer)
                }
            }
        }

        Benchmark("Subscribe value observers (n = \(count))") { benchmark in
            let observable = BenchmarkedObservable()
            let observers = (0..<count).map { _ in ValueObserver() }
            measureBatch(benchmark, count: count) {
                for observer in observers {
                    observable.subscribe(observer)
                }
            }
        }

        Benchmark("Unsubscribe tracking observers in random order (n = \(count))") { benchmark in
            let (observable, observersInRandomOrder) = observableWithTrackingObservers(
                count: count,
                visitInRandomOrder: true
            )
            measureBatch(benchmark, count: count) {
                for observer in observersInRandomOrder {
                    observable.unsubscribe(observer)
                }
            }
        }

        // Asking changes nothing, so every iteration asks the same observable about the same observers.
        for (orderName, visitInRandomOrder) in [("subscription order", false), ("random order", true)] {
            Benchmark("amISubscribed, tracking observers in \(orderName) (n = \(count))") { benchmark, subscribed in
                var subscribedCount = 0
                measureBatch(benchmark, count: count) {
                    for observer in subscribed.observersToVisit where subscribed.observable.amISubscribed(observer) {
                        subscribedCount += 1
                    }
                }
                precondition(subscribedCount == count)
            } setup: {
                observableWithTrackingObservers(count: count, visitInRandomOrder: visitInRandomOrder)
            }
        }

        // References: a bare standard-library hash table on the same machine. Their growth from 10k to
        // 100k is the floor that caches and the TLB set for any hash-based bookkeeping.
        Benchmark("Reference: Dictionary<UUID, Int> insert (n = \(count))") { benchmark, keys in
            var table: [UUID: Int] = [:]
            measureBatch(benchmark, count: count) {
                for (index, key) in keys.enumerated() {
                    table[key] = index
                }
            }
            precondition(table.count == count)
        } setup: {
            (0..<count).map { _ in UUID() }
        }

        Benchmark("Reference: Dictionary<UUID, Int> lookup in random order (n = \(count))") { benchmark, lookup in
            var foundCount = 0
            measureBatch(benchmark, count: count) {
                for key in lookup.keysInRandomOrder where lookup.table[key] != nil {
                    foundCount += 1
                }
            }
            precondition(foundCount == count)
        } setup: {
            tableWithRandomKeys(count: count)
        }
    }
}
