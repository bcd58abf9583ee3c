import Testing

@testable import Messaging

/// Every change a sorted view sends, in order, kept while the recorder lives.
final class SortedChangeRecorder<Element: Equatable & Sendable>: Sendable {
    let token: ObservationToken
    let received = Locked<[ArrayChange<Element>]>([])

    init(_ view: SortedArrayView<Element>, replayingLatest: Bool = false) {
        let received = received
        token = view.subscribe(replayingLatest: replayingLatest) { change in
            received.withLock { $0.append(change) }
        }
    }

    /// The changes received so far, leaving the list empty.
    func take() -> [ArrayChange<Element>] {
        received.withLock { changes in
            defer { changes = [] }
            return changes
        }
    }
}

/// Every update an extremum sends, in order, kept while the recorder lives.
final class ExtremumRecorder<Element: Equatable & Sendable>: Sendable {
    let token: ObservationToken
    let received = Locked<[Update<Element?>]>([])

    init(_ extremum: ArrayExtremum<Element>) {
        let received = received
        token = extremum.subscribe { update in received.withLock { $0.append(update) } }
    }

    /// The updates received so far, leaving the list empty.
    func take() -> [Update<Element?>] {
        received.withLock { updates in
            defer { updates = [] }
            return updates
        }
    }
}

/// Sorted views, their prefixes and the observable least and greatest elements of an observable
/// array: exact changes against the view's own contents, equivalent elements in a stable order,
/// the array observed only while the view is.
@Suite("SortedArrayView and ArrayExtremum: sorted views, prefixes, min and max of an ObservableArray")
struct SortedArrayViewTests {
    /// An element ordered by its key only: two of them can be equivalent without being equal.
    struct Task: Equatable, Sendable, CustomStringConvertible {
        let priority: Int
        let name: String
        var description: String { "\(name)/\(priority)" }
    }

    @Test func aSortedViewSendsEachEditAtItsSortedPosition() {
        let array = ObservableArray([30, 10, 20])
        let view = array.sortedView()
        let recorder = SortedChangeRecorder(view)
        #expect(view.value == [10, 20, 30])
        #expect(view.count == 3)

        array.append(25)
        #expect(recorder.take() == [change(3, .insert(25, at: 2))])
        array.remove(at: 0)  // 30
        #expect(recorder.take() == [change(4, .remove(30, at: 3))])
        array[0] = 5  // 10 → 5 keeps its rank
        #expect(recorder.take() == [change(3, .replace(10, with: 5, at: 0))])
        array[0] = 40  // 5 → 40 moves to the end
        #expect(recorder.take() == [change(3, .remove(5, at: 0), .insert(40, at: 3))])
        #expect(view.value == [20, 25, 40])
        array.move(from: 0, to: 2)  // the order of the array is not the view's
        #expect(recorder.take().isEmpty)
        array.removeAll()
        #expect(recorder.take() == [change(3, .replaceSlice([20, 25, 40], at: 0, with: []))])
        #expect(view.value == [])
    }

    @Test func aTransactionGivesOneChangeOfTheView() {
        let array = ObservableArray([3, 1])
        let view = array.sortedView(by: >)
        let recorder = SortedChangeRecorder(view)
        array.withTransaction {
            array.append(2)
            array.append(5)
            array.remove(at: 0)
        }
        let received = recorder.take()
        #expect(received.count == 1)
        #expect(received.first?.applied(to: [3, 1]) == [5, 2, 1])
        #expect(view.value == [5, 2, 1])
    }

    @Test func equivalentElementsKeepTheOrderInWhichTheyCameIn() {
        let a = Task(priority: 1, name: "a")
        let b = Task(priority: 1, name: "b")
        let c = Task(priority: 1, name: "c")
        let urgent = Task(priority: 0, name: "urgent")
        let array = ObservableArray([b, a])
        let view = array.sortedView { $0.priority < $1.priority }
        let recorder = SortedChangeRecorder(view)
        #expect(view.value == [b, a])  // the array's order when the view starts
        array.insert(c, at: 0)
        #expect(view.value == [b, a, c])  // after the equivalent ones already there
        array.append(urgent)
        #expect(view.value == [urgent, b, a, c])
        // The removed element is found among its equivalents by `==`.
        array.modify { $0.removeAll { $0 == a } }
        #expect(recorder.take().last == change(4, .remove(a, at: 2)))
        #expect(view.value == [urgent, b, c])
    }

    @Test func aPrefixPushesOutAndLetsInItsLastElement() {
        let array = ObservableArray([50, 10, 40, 20, 30])
        let firstThree = array.sortedView().prefix(3)
        #expect(firstThree.limit == 3)
        let recorder = SortedChangeRecorder(firstThree)
        #expect(firstThree.value == [10, 20, 30])

        array.append(15)
        #expect(recorder.take() == [change(3, .insert(15, at: 1), .remove(30, at: 2))])
        #expect(firstThree.value == [10, 15, 20])
        array.append(60)  // after the prefix: nothing
        #expect(recorder.take().isEmpty)
        array.remove(at: 1)  // 10
        #expect(recorder.take() == [change(3, .remove(10, at: 0), .insert(30, at: 3))])
        #expect(firstThree.value == [15, 20, 30])
        array.modify { $0.removeAll { $0 < 60 } }
        #expect(firstThree.value == [60])
        #expect(firstThree.count == 1)
        #expect(recorder.take().count == 1)
        #expect(array.sortedView().prefix(0).value == [])
        #expect(firstThree.prefix(10).limit == 3)
    }

    @Test func minAndMaxSendOnlyWhenTheExtremeElementChanges() {
        let array = ObservableArray([18, 21, 16])
        let coldest = array.observableMin
        let warmest = array.observableMax
        let mins = ExtremumRecorder(coldest)
        let maxes = ExtremumRecorder(warmest)
        #expect(coldest.value == 16 && warmest.value == 21)

        array.append(12)
        #expect(mins.take() == [Update(16, 12)])
        #expect(maxes.take().isEmpty)
        array.append(20)
        #expect(mins.take().isEmpty && maxes.take().isEmpty)
        array.append(12)  // an equal minimum
        #expect(mins.take().isEmpty)
        array.remove(at: 3)  // one 12 of two
        #expect(mins.take().isEmpty)
        array.remove(at: 4)  // the other
        #expect(mins.take() == [Update(12, 16)])
        array.removeAll()
        #expect(mins.take() == [Update(16, nil)])
        #expect(maxes.take() == [Update(21, nil)])
        #expect(coldest.value == nil)
        array.append(7)
        #expect(maxes.take() == [Update(nil, 7)])
        let shortest = ObservableArray(["ccc", "a", "bb"]).observableMin { $0.count < $1.count }
        #expect(shortest.value == "a")
        #expect(coldest.latestMessage == Update(7, 7))
    }

    @Test func anUnobservedViewSortsTheCurrentContentsWhenRead() {
        let array = ObservableArray([3, 1, 2])
        let view = array.sortedView()
        let top = view.prefix(2)
        #expect(view.value == [1, 2, 3])
        array.append(0)
        #expect(view.value == [0, 1, 2, 3])
        #expect(top.value == [0, 1])
        #expect(top.count == 2 && view.count == 4)
        #expect(array.observableMax.value == 3)
        #expect(view.latestMessage == ArrayChange(insertingContentsOf: [0, 1, 2, 3], at: 0, into: []))
    }

    @Test func aReplayGivesTheSortedContentsAsOneInsertion() {
        let array = ObservableArray([2, 1])
        let view = array.sortedView()
        let recorder = SortedChangeRecorder(view, replayingLatest: true)
        #expect(recorder.take() == [ArrayChange(insertingContentsOf: [1, 2], at: 0, into: [])])
        array.append(0)
        #expect(recorder.take() == [change(2, .insert(0, at: 0))])
    }

    @Test func anObservationThatStopsAndStartsAgainStartsFromTheCurrentContents() {
        let array = ObservableArray([2, 1])
        let view = array.sortedView()
        var recorder: SortedChangeRecorder<Int>? = SortedChangeRecorder(view)
        array.append(3)
        #expect(recorder?.take() == [change(2, .insert(3, at: 2))])
        recorder = nil
        array.append(0)
        array.remove(at: 1)
        recorder = SortedChangeRecorder(view)
        #expect(view.value == [0, 2, 3])
        array.append(1)
        #expect(recorder?.take() == [change(3, .insert(1, at: 1))])
        withExtendedLifetime(recorder) {}
    }

    @Test func editsFromEightThreadsLeaveTheViewsEqualToASortOfTheArray() {
        let array = ObservableArray<Int>((0..<100).map { ($0 * 37) % 101 })
        let view = array.sortedView()
        let top = view.prefix(5)
        let maximum = array.observableMax
        let copy = Locked<[Int]>(view.value)
        let topCopy = Locked<[Int]>([])
        let lastMax = Locked<Int?>(nil)
        let token = view.subscribe { received in copy.withLock { received.apply(to: &$0) } }
        let topToken = top.subscribe(replayingLatest: false) { received in
            topCopy.withLock { received.apply(to: &$0) }
        }
        topCopy.withLock { $0 = top.value }
        let maxToken = maximum.subscribe { update in lastMax.withLock { $0 = update.new } }
        lastMax.withLock { $0 = maximum.value }
        let finished = runOnThreads(8) { thread in
            for step in 0..<300 {
                let value = (thread * 7_919 + step * 104_729) % 1_000
                switch step % 5 {
                case 0: array.append(value)
                case 1: array.insert(value, at: 0)
                case 2: array.modify { if !$0.isEmpty { $0.removeLast() } }
                case 3:
                    array.withTransaction {
                        array.append(value)
                        array.modify { if $0.count > 1 { $0[0] = value / 2 } }
                    }
                default: array.modify { if !$0.isEmpty { $0[$0.count / 2] = value } }
                }
            }
        }
        #expect(finished)
        #expect(waitUntilDelivered(array.messenger, view.messenger, top.messenger, maximum.messenger))
        let sorted = array.value.sorted()
        #expect(waitUntil { copy.value == sorted })
        #expect(view.value == sorted)
        #expect(topCopy.value == Array(sorted.prefix(5)))
        #expect(top.value == Array(sorted.prefix(5)))
        #expect(lastMax.value == sorted.last)
        #expect(maximum.value == sorted.last)
        withExtendedLifetime((token, topToken, maxToken)) {}
    }
}

/// Sorted views and extrema hold their array only while observed, and let go of everything.
@Suite("SortedArrayView and ArrayExtremum: lifetime")
struct SortedArrayViewLifetimeTests {
    /// An element compared by identity, whose release the test can see.
    final class Box: Equatable, Sendable {
        let rank: Int
        init(_ rank: Int) { self.rank = rank }
        static func == (a: Box, b: Box) -> Bool { a === b }
    }

    @Test func theViewStopsObservingAndHoldingTheArrayWhenItsLastObservationEnds() {
        weak var weakArray: ObservableArray<Box>?
        weak var weakView: SortedArrayView<Box>?
        weak var weakMin: ArrayExtremum<Box>?
        weak var weakBox: Box?
        var tokens: [ObservationToken] = []
        var array: ObservableArray<Box>? = ObservableArray([Box(2), Box(1)])
        do {
            let view = array!.sortedView { $0.rank < $1.rank }
            let minimum = array!.observableMin { $0.rank < $1.rank }
            weakArray = array
            weakView = view
            weakMin = minimum
            tokens.append(view.subscribe { _ in })
            tokens.append(view.prefix(1).subscribe { _ in })
            tokens.append(minimum.subscribe { _ in })
            let box = Box(0)
            weakBox = box
            array!.append(box)
            #expect(view.value.first === box)
            #expect(minimum.value === box)
            #expect(array!.messenger._core.observationCount == 3)
        }
        // Observed, the views are kept alive by their observations, and they observe the array.
        #expect(weakView != nil && weakMin != nil)
        array!.remove(at: 2)
        #expect(weakBox == nil)  // released by the array and every view's tree
        for token in tokens { token.stopObserving() }
        tokens = []
        // Their last observation ended: they stop observing the array and are released.
        #expect(array!.messenger._core.observationCount == 0)
        #expect(weakView == nil && weakMin == nil)
        array = nil
        #expect(weakArray == nil)
    }

    @Test func anUnobservedViewDoesNotKeepItsArrayObserved() {
        weak var weakView: SortedArrayView<Int>?
        let array = ObservableArray([1])
        do {
            let view = array.sortedView()
            weakView = view
            let token = view.subscribe { _ in }
            #expect(array.messenger._core.observationCount == 1)
            token.stopObserving()
            #expect(array.messenger._core.observationCount == 0)
            #expect(view.value == [1])
        }
        #expect(weakView == nil)
    }
}
