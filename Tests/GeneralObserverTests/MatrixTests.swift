import Foundation
import Testing

@testable import GeneralObserver

/// Ten observables and ten tracking observers, checked against a plain model of the graph after
/// every step: both listings in order, `amISubscribed` from both sides for all hundred pairs, and
/// the exact callbacks fired since the previous check.
private final class Matrix {
    let log = EventLog()
    let observables: [TestObservable]
    let trackers: [TestTracker]
    /// For each observable, the indices of its trackers in subscription order.
    private(set) var observersOf: [[Int]]
    /// For each tracker, the indices of its observables in subscription order.
    private(set) var subscriptionsOf: [[Int]]
    private var expectedEvents: [Event] = []

    init(size: Int = 10) {
        observables = (0..<size).map { [log] in TestObservable("o\($0)", log: log) }
        trackers = (0..<size).map { [log] in TestTracker("t\($0)", log: log) }
        observersOf = Array(repeating: [], count: size)
        subscriptionsOf = Array(repeating: [], count: size)
    }

    var size: Int { observables.count }

    /// Subscribes tracker `column` to observable `row`, on the graph and in the model.
    func subscribe(_ row: Int, _ column: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let result = observables[row].subscribe(trackers[column])
        if observersOf[row].contains(column) {
            #expect(result == nil, "o\(row) ← t\(column)", sourceLocation: sourceLocation)
        } else {
            #expect(result === trackers[column], "o\(row) ← t\(column)", sourceLocation: sourceLocation)
            observersOf[row].append(column)
            subscriptionsOf[column].append(row)
            expectedEvents += Event.subscription("t\(column)", to: "o\(row)")
        }
    }

    /// Unsubscribes tracker `column` from observable `row`, called on the observable.
    func unsubscribe(_ row: Int, _ column: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let result = observables[row].unsubscribe(trackers[column])
        expectUnsubscribed(row, column, result === trackers[column], result == nil, sourceLocation)
    }

    /// Unsubscribes tracker `column` from observable `row`, starting from the tracker: it finds the
    /// observable among its own subscriptions and asks it to let go.
    func unsubscribeFromTrackerSide(_ row: Int, _ column: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let tracker = trackers[column]
        let found = tracker.subscriptions.first { $0 === observables[row] }
        #expect((found != nil) == observersOf[row].contains(column), sourceLocation: sourceLocation)
        let result = found?.unsubscribe(tracker)
        expectUnsubscribed(row, column, result === tracker, result == nil, sourceLocation)
    }

    /// Empties row `row`: `observables[row].unsubscribeAll()`.
    func clearRow(_ row: Int) {
        observables[row].unsubscribeAll()
        for column in observersOf[row] {
            subscriptionsOf[column].removeAll { $0 == row }
            expectedEvents += Event.unsubscription("t\(column)", from: "o\(row)")
        }
        observersOf[row] = []
    }

    /// Empties column `column`: `trackers[column].unsubscribeAll()`.
    func clearColumn(_ column: Int) {
        trackers[column].unsubscribeAll()
        for row in subscriptionsOf[column] {
            observersOf[row].removeAll { $0 == column }
            expectedEvents += Event.unsubscription("t\(column)", from: "o\(row)")
        }
        subscriptionsOf[column] = []
    }

    private func expectUnsubscribed(
        _ row: Int,
        _ column: Int,
        _ returnedTracker: Bool,
        _ returnedNil: Bool,
        _ sourceLocation: SourceLocation
    ) {
        if observersOf[row].contains(column) {
            #expect(returnedTracker, "o\(row) ↛ t\(column)", sourceLocation: sourceLocation)
            observersOf[row].removeAll { $0 == column }
            subscriptionsOf[column].removeAll { $0 == row }
            expectedEvents += Event.unsubscription("t\(column)", from: "o\(row)")
        } else {
            #expect(returnedNil, "o\(row) ↛ t\(column)", sourceLocation: sourceLocation)
        }
    }

    /// Checks the whole graph against the model, and the callbacks fired since the last check.
    func verify(sourceLocation: SourceLocation = #_sourceLocation) {
        for row in 0..<size {
            #expect(
                names(observables[row].observers) == observersOf[row].map { "t\($0)" },
                "observers of o\(row)",
                sourceLocation: sourceLocation
            )
            #expect(
                observables[row].subscriptionLedger._entryCounts.observers == observersOf[row].count,
                sourceLocation: sourceLocation
            )
        }
        for column in 0..<size {
            #expect(
                names(trackers[column].subscriptions) == subscriptionsOf[column].map { "o\($0)" },
                "subscriptions of t\(column)",
                sourceLocation: sourceLocation
            )
            #expect(
                trackers[column].subscriptionLedger._entryCounts.subscriptions == subscriptionsOf[column].count,
                sourceLocation: sourceLocation
            )
        }
        var mismatches: [String] = []
        for row in 0..<size {
            for column in 0..<size {
                let expected = observersOf[row].contains(column)
                if observables[row].amISubscribed(trackers[column]) != expected {
                    mismatches.append("o\(row).amISubscribed(t\(column)) != \(expected)")
                }
                if trackers[column].amISubscribed(observables[row]) != expected {
                    mismatches.append("t\(column).amISubscribed(o\(row)) != \(expected)")
                }
            }
        }
        #expect(mismatches == [], sourceLocation: sourceLocation)
        #expect(log.take() == expectedEvents, sourceLocation: sourceLocation)
        expectedEvents = []
    }

    var pairCount: Int { observersOf.reduce(0) { $0 + $1.count } }
}

@Suite("Ten by ten subscription matrix")
struct MatrixTests {
    @Test func everyPairCanBeSubscribedAndIsSeenFromBothSides() {
        let matrix = Matrix()
        for row in 0..<10 {
            for column in 0..<10 {
                matrix.subscribe(row, column)
            }
        }
        matrix.verify()
        #expect(matrix.pairCount == 100)

        // A second round changes nothing and fires nothing.
        for column in 0..<10 {
            for row in 0..<10 {
                matrix.subscribe(row, column)
            }
        }
        matrix.verify()
        #expect(matrix.pairCount == 100)
    }

    @Test func diagonalsRowsAndColumnsCanBeRemovedFromEitherSide() {
        let matrix = Matrix()
        for row in 0..<10 {
            for column in 0..<10 {
                matrix.subscribe(row, column)
            }
        }
        matrix.verify()

        // The diagonal, from the observables.
        for index in 0..<10 {
            matrix.unsubscribe(index, index)
        }
        matrix.verify()
        #expect(matrix.pairCount == 90)

        // The anti-diagonal, from the tracking observers.
        for index in 0..<10 {
            matrix.unsubscribeFromTrackerSide(9 - index, index)
        }
        matrix.verify()
        #expect(matrix.pairCount == 80)

        // Removing them again is a no-op from both sides.
        for index in 0..<10 {
            matrix.unsubscribe(index, index)
            matrix.unsubscribeFromTrackerSide(9 - index, index)
        }
        matrix.verify()

        // Row 3 with the observable's unsubscribeAll().
        matrix.clearRow(3)
        matrix.verify()
        #expect(matrix.pairCount == 72)

        // Column 5 with the tracking observer's unsubscribeAll().
        matrix.clearColumn(5)
        matrix.verify()
        #expect(matrix.pairCount == 65)

        // Column 2 one pair at a time from the observables; row 7 one pair at a time from the trackers.
        for row in 0..<10 {
            matrix.unsubscribe(row, 2)
        }
        matrix.verify()
        for column in 0..<10 {
            matrix.unsubscribeFromTrackerSide(7, column)
        }
        matrix.verify()
        #expect(matrix.pairCount == 51)

        // Refill column-wise: the missing pairs go to the end of both listings, in refill order.
        for column in (0..<10).reversed() {
            for row in 0..<10 {
                matrix.subscribe(row, column)
            }
        }
        matrix.verify()
        #expect(matrix.pairCount == 100)

        // Tear everything down, alternating rows and columns.
        for index in 0..<10 {
            if index.isMultiple(of: 2) {
                matrix.clearRow(index)
                matrix.clearColumn(index)
            } else {
                matrix.clearColumn(index)
                matrix.clearRow(index)
            }
            matrix.verify()
        }
        #expect(matrix.pairCount == 0)
    }

    @Test func randomChangesKeepTheMatrixConsistent() {
        let matrix = Matrix()
        var generator = SeededGenerator(seed: 2024)
        for step in 0..<600 {
            let row = Int.random(in: 0..<10, using: &generator)
            let column = Int.random(in: 0..<10, using: &generator)
            switch Int.random(in: 0..<20, using: &generator) {
            case 0: matrix.clearRow(row)
            case 1: matrix.clearColumn(column)
            case 2..<11: matrix.subscribe(row, column)
            case 11..<16: matrix.unsubscribe(row, column)
            default: matrix.unsubscribeFromTrackerSide(row, column)
            }
            if step.isMultiple(of: 50) {
                matrix.verify()
            }
        }
        matrix.verify()
    }

    @Test func hubsSubscribedToEachOtherIncludingThemselves() {
        let log = EventLog()
        let hubs = (0..<10).map { TestHub("h\($0)", log: log) }
        for observable in hubs {
            for observer in hubs {
                #expect(observable.subscribe(observer) === observer)
            }
        }
        let everyone = (0..<10).map { "h\($0)" }
        for hub in hubs {
            #expect(names(hub.observers) == everyone)
            #expect(names(hub.subscriptions) == everyone)
        }
        #expect(log.take().count == 200)

        // h4 leaves both roles: its row and its column disappear, including the diagonal pair.
        hubs[4].unsubscribeAll()
        let withoutFour = everyone.filter { $0 != "h4" }
        #expect(hubs[4].observers.isEmpty)
        #expect(hubs[4].subscriptions.isEmpty)
        for (index, hub) in hubs.enumerated() where index != 4 {
            #expect(names(hub.observers) == withoutFour)
            #expect(names(hub.subscriptions) == withoutFour)
            #expect(!hub.amISubscribed(hubs[4]))
            #expect(!hubs[4].amISubscribed(hub))
        }
        // First its observers in subscription order (itself among them), then what it still observes.
        let observerSide = everyone.flatMap { Event.unsubscription($0, from: "h4") }
        let observableSide = withoutFour.flatMap { Event.unsubscription("h4", from: $0) }
        #expect(log.take() == observerSide + observableSide)
    }
}
