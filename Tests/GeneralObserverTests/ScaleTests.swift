import Foundation
import Testing

@testable import GeneralObserver

@Suite("Many observers")
struct ScaleTests {
    @Test func twentyThousandObserversUnsubscribeInRandomOrder() {
        let observable = TestObservable("o")
        let values = (0..<20_000).map { ValueObserver("v\($0)") }
        for value in values {
            #expect(observable.subscribe(value) != nil)
        }
        #expect(observable.observers.map(\.uuid) == values.map(\.uuid))

        var generator = SeededGenerator(seed: 20_000)
        let order = values.indices.shuffled(using: &generator)
        var removed = Set<Int>()
        var wrongResults = 0
        for (step, index) in order.enumerated() {
            if observable.unsubscribe(values[index])?.uuid != values[index].uuid {
                wrongResults += 1
            }
            removed.insert(index)
            if (step + 1).isMultiple(of: 4_000) {
                let expected = values.indices.filter { !removed.contains($0) }.map { values[$0].uuid }
                #expect(observable.observers.map(\.uuid) == expected, "after \(step + 1) removals")
                #expect(observable.subscriptionLedger._entryCounts.observers == expected.count)
            }
        }
        #expect(wrongResults == 0)
        #expect(observable.observers.isEmpty)
        #expect(!values.contains { observable.amISubscribed($0) })
    }

    @Test func trackerWithThousandsOfSubscriptionsKeepsThemInOrder() {
        let tracker = TestTracker("t")
        let observables = (0..<3_000).map { TestObservable("o\($0)") }
        for observable in observables {
            observable.subscribe(tracker)
        }

        var generator = SeededGenerator(seed: 3_000)
        let order = observables.indices.shuffled(using: &generator)
        for index in order.prefix(2_500) {
            observables[index].unsubscribe(tracker)
        }

        let kept = Set(order.dropFirst(2_500))
        let expected = observables.indices.filter { kept.contains($0) }.map { "o\($0)" }
        #expect(names(tracker.subscriptions) == expected)
        #expect(tracker.subscriptionLedger._entryCounts.subscriptions == 500)
        tracker.unsubscribeAll()
        #expect(tracker.subscriptions.isEmpty)
        #expect(observables.allSatisfy { $0.observers.isEmpty })
    }
}
