// Helpers shared by the async sequence tests.

import Foundation
import Testing

@testable import Messaging

/// An async sequence that runs `afterStart` right after its base made its iterator: the observation
/// has started then, so what `afterStart` sends reaches the loop, with no waiting.
struct AfterStart<Base: AsyncSequence>: AsyncSequence {
    typealias Element = Base.Element
    typealias Failure = Base.Failure
    let base: Base
    let afterStart: () -> Void

    func makeAsyncIterator() -> Iterator {
        let iterator = base.makeAsyncIterator()
        afterStart()
        return Iterator(base: iterator)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator

        mutating func next() async throws(Base.Failure) -> Element? {
            try await base.next(isolation: nil)
        }

        mutating func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> Element? {
            try await base.next(isolation: actor)
        }
    }
}

extension AsyncSequence {
    /// This sequence, with `body` run as soon as an iteration has started.
    func afterStart(_ body: @escaping () -> Void) -> AfterStart<Self> {
        AfterStart(base: self, afterStart: body)
    }
}

/// The buffers of a messenger's async sequence consumers, read through its core.
func buffers<Message: Sendable>(of messenger: Messenger<Message>) -> [_MessageBuffer<Message>] {
    messenger._core.tokenObservations().compactMap { observation in
        (observation as? _SinkObservation<Message>)?._sink as? _MessageBuffer<Message>
    }
}

/// Waits, bounded, until `count` consumers of `messenger` wait in `next()`: a consumer task's
/// suspension has no event to wait for, so this polls the buffers' state.
func consumersWait<Message: Sendable>(
    _ count: Int,
    on messenger: Messenger<Message>,
    isolation: isolated (any Actor)? = #isolation
) async -> Bool {
    await eventually {
        buffers(of: messenger).filter { buffer in buffer._withLock { $0.waiting != nil } }.count == count
    }
}

/// A message object, so that a weak reference tells whether the library still holds it.
final class Parcel: Sendable {
    let number: Int

    init(_ number: Int) {
        self.number = number
    }
}

/// An error a test sequence throws.
struct SequenceFailure: Error, Equatable {}

extension Messenger where Message == Int {
    /// Sends every number of `numbers`, in order.
    func send(each numbers: ClosedRange<Int>) {
        for number in numbers { send(number) }
    }
}
