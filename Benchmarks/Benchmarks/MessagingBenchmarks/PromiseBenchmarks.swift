// What awaiting a promise costs, against the bare continuation it is built on: the value of a
// promise that is fulfilled already, and of one that another task fulfils while the caller waits,
// each next to `withCheckedContinuation` resumed the same way. Also what adding a handler to a
// pending promise and fulfilling it costs, without tasks.
//
// Every benchmark runs 1,000 operations per iteration and uses `scalingFactor`, so its
// `Time (wall clock)` and `Malloc (total)` are per operation.

import Benchmark
import Messaging

func registerPromiseBenchmarks() {
    let operations = 1_000
    let configuration = Benchmark.Configuration(scalingFactor: .kilo)

    Benchmark("Promise: await value, fulfilled already (per await)", configuration: configuration) { benchmark in
        let promise = Promise(fulfilled: 1)
        for _ in 0..<operations {
            blackHole(await promise.value)
        }
    }

    Benchmark(
        "Continuation: withCheckedContinuation, resumed at once (per await)",
        configuration: configuration
    ) { benchmark in
        for index in 0..<operations {
            blackHole(await withCheckedContinuation { $0.resume(returning: index) })
        }
    }

    Benchmark(
        "Promise: await value, fulfilled by another task (per await)",
        configuration: configuration
    ) { benchmark in
        for index in 0..<operations {
            let promise = Promise<Int>()
            Task { promise.fulfill(index) }
            blackHole(await promise.value)
        }
    }

    Benchmark(
        "Continuation: withCheckedContinuation, resumed by another task (per await)",
        configuration: configuration
    ) { benchmark in
        for index in 0..<operations {
            blackHole(
                await withCheckedContinuation { continuation in
                    Task { continuation.resume(returning: index) }
                }
            )
        }
    }

    Benchmark(
        "Promise: whenFulfilled on a pending promise, then fulfill (per promise)",
        configuration: configuration
    ) { benchmark in
        for index in 0..<operations {
            let promise = Promise<Int>()
            promise.whenFulfilled { blackHole($0) }
            promise.fulfill(index)
        }
    }
}
