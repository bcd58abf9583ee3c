// Messages per second from a producer to one `for await` consumer: a messenger's `messages`
// against a plain unbounded `AsyncStream`, the same number of messages, side by side. The consumer
// task starts (and is waiting) before the measurement; the producer sends from the benchmark's
// thread, ends the sequence, and waits for the consumer to have received everything.

import Benchmark
import Messaging

/// How many messages one iteration sends.
private let asyncMessageCount = 100_000

/// Registers the async sequence throughput benchmarks.
func registerAsyncSequenceBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 50
    )

    Benchmark("Async: Messenger.messages, 1 consumer (per 1,000 messages)", configuration: configuration) {
        benchmark in
        let messenger = Messenger<Int>()
        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            var sum = 0
            var iterator = messenger.messages.makeAsyncIterator()
            startedContinuation.yield()
            while let message = await iterator.next() { sum &+= message }
            return sum
        }
        for await _ in started { break }
        benchmark.startMeasurement()
        for message in 0..<asyncMessageCount { messenger.send(message) }
        messenger.stopBeingObserved()
        blackHole(await consumer.value)
        benchmark.stopMeasurement()
    }

    Benchmark("Async: AsyncStream (unbounded), 1 consumer (per 1,000 messages)", configuration: configuration) {
        benchmark in
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            var sum = 0
            var iterator = stream.makeAsyncIterator()
            startedContinuation.yield()
            while let message = await iterator.next() { sum &+= message }
            return sum
        }
        for await _ in started { break }
        benchmark.startMeasurement()
        for message in 0..<asyncMessageCount { continuation.yield(message) }
        continuation.finish()
        blackHole(await consumer.value)
        benchmark.stopMeasurement()
    }
}
