import Dispatch
import Foundation
import Messaging
import Testing

@Suite("Combinators: merge and combineLatest")
struct CombinatorTests {
    @Test func mergeSendsEveryMessageOfEverySourceInOrder() {
        let a = Messenger<Int>()
        let b = Messenger<Int>()
        let c = Var(0).new()
        let merged = merge(a, b, c)
        let log = Locked<[Int]>([])
        let token = merged.subscribe { value in log.withLock { $0.append(value) } }
        a.send(1)
        b.send(2)
        c.origin.value = 3
        a.send(4)
        #expect(log.value == [1, 2, 3, 4])
        withExtendedLifetime(token) {}
    }

    /// The limit stated in `Merged`'s documentation: one thread's messages keep their order across
    /// sources only while no other thread is delivering on those sources.
    @Test func mergeOrderAcrossSourcesYieldsToAnotherThreadsDelivery() {
        let a = Messenger<Int>()
        let b = Messenger<Int>()
        let merged = merge(a, b)
        let log = Locked<[Int]>([])
        let token = merged.subscribe { value in log.withLock { $0.append(value) } }
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let holder = a.subscribe { value in
            guard value == 0 else { return }
            entered.signal()
            gate.wait()
        }
        let finished = DispatchGroup()
        finished.enter()
        Thread {
            a.send(0)  // held open in `holder`, after the merge got it
            finished.leave()
        }.start()
        entered.wait()
        a.send(1)  // queued behind the other thread's delivery on `a`
        b.send(2)  // `b` is idle: delivered at once
        gate.signal()
        #expect(finished.wait(timeout: .now() + 120) == .success)
        #expect(log.value == [0, 2, 1])
        // With both sources idle, one thread's order holds across them.
        log.withLock { $0 = [] }
        a.send(3)
        b.send(4)
        a.send(5)
        #expect(log.value == [3, 4, 5])
        withExtendedLifetime((token, holder)) {}
    }

    @Test func mergeObservesItsSourcesOnlyWhileObservedAndOnce() {
        let a = Messenger<Int>()
        let b = Messenger<Int>()
        let merged = merge(a, b)
        #expect(a.observationCount == 0 && b.observationCount == 0)
        let tokens = (0..<3).map { _ in merged.subscribe { _ in } }
        #expect(a.observationCount == 1 && b.observationCount == 1)
        for token in tokens { token.stopObserving() }
        #expect(a.observationCount == 0 && b.observationCount == 0)
    }

    @Test func mergeKeepsTheAuthor() {
        let a = Messenger<Int>()
        let merged = Merged([a])
        let author = Probe()
        let authors = Locked<[ObjectIdentifier]>([])
        let spy = Spy("spy")
        spy.observe(merged) { _, author in authors.withLock { $0.append(ObjectIdentifier(author)) } }
        a.send(1, from: author)
        #expect(authors.value == [ObjectIdentifier(author)])
    }

    @Test func anObservedMergeLivesAsLongAsTheObservation() {
        let a = Messenger<Int>()
        weak var weakMerged: Merged<Int>?
        let observer = FreeObserver()
        let log = Locked<[Int]>([])
        do {
            let merged = merge(a, Messenger<Int>())
            weakMerged = merged
            observer.observe(merged) { value in log.withLock { $0.append(value) } }
        }
        #expect(weakMerged != nil)
        a.send(1)
        #expect(log.value == [1])
        observer.stopObserving()
        #expect(weakMerged == nil)
        #expect(a.observationCount == 0)
    }

    @Test func aDeadSourceEndsNothingInAMerge() {
        var a: Messenger<Int>? = Messenger()
        let b = Messenger<Int>()
        let merged = merge(a!.weak(), b)
        let log = Locked<[Int]>([])
        let token = merged.subscribe { value in log.withLock { $0.append(value) } }
        a = nil
        b.send(2)
        #expect(log.value == [2])
        #expect(token.isObserving)
    }

    @Test func combineLatestWaitsForEverySourceThenSendsEachChange() {
        let a = Messenger<Int>()
        let b = Messenger<String>()
        let combined = combineLatest(a, b)
        let log = Locked<[String]>([])
        let token = combined.subscribe { number, text in log.withLock { $0.append("\(number)\(text)") } }
        a.send(1)
        a.send(2)
        b.send("x")
        a.send(3)
        b.send("y")
        #expect(log.value == ["2x", "3x", "3y"])
        withExtendedLifetime(token) {}
    }

    @Test func theVariadicPathCombinesAsTheFunctionsForTwoToFourSourcesDo() {
        // Two to four sources take the functions that read their slots by name; five, and the
        // initializer, go through the parameter pack.
        let a = Messenger<Int>()
        let b = Messenger<String>()
        let c = Var(true)
        let d = Var(0.5)
        let five = combineLatest(a, b, c.new(), d.new(), c.new())
        let four = combineLatest(a, b, c.new(), d.new())
        let pair = CombinedLatest(a, b)
        let log = Locked<[String]>([])
        let fiveToken = five.subscribe { a, b, c, d, e in log.withLock { $0.append("5:\(a)\(b)\(c)\(d)\(e)") } }
        let fourToken = four.subscribe { a, b, c, d in log.withLock { $0.append("4:\(a)\(b)\(c)\(d)") } }
        let pairToken = pair.subscribe { a, b in log.withLock { $0.append("2:\(a)\(b)") } }
        a.send(1)
        b.send("x")
        c.value = false
        a.send(2)
        // b: five, then four, then the pair (the order they observed b). c: five sees it twice,
        // once from each of its two sources that follow c.
        #expect(
            log.value == [
                "5:1xtrue0.5true", "4:1xtrue0.5", "2:1x",
                "5:1xfalse0.5true", "5:1xfalse0.5false", "4:1xfalse0.5",
                "5:2xfalse0.5false", "4:2xfalse0.5", "2:2x",
            ])
        withExtendedLifetime((fiveToken, fourToken, pairToken)) {}
    }

    @Test func combineLatestOfCachesStartsFromTheirLatestMessages() {
        let first = Var("Ada")
        let last = Var("Lovelace")
        let age = Var(36)
        let person = combineLatest(first.new(), last.new(), age.new())
        #expect(person.latestMessage == ("Ada", "Lovelace", 36))
        let log = Locked<[String]>([])
        let token = person.subscribe { first, last, age in log.withLock { $0.append("\(first) \(last) \(age)") } }
        #expect(log.value.isEmpty)  // starting to observe sends nothing
        last.value = "Byron"
        age.value = 37
        #expect(log.value == ["Ada Byron 36", "Ada Byron 37"])
        withExtendedLifetime(token) {}
    }

    @Test func aCombinationThatIsMappedIsACacheToo() {
        let width = Var(2)
        let height = Var(3)
        let area = combineLatest(width.new(), height.new()).map { size in size.0 * size.1 }
        #expect(area.latestMessage == 6)
        let log = Locked<[Int]>([])
        let token = area.subscribe { value in log.withLock { $0.append(value) } }
        width.value = 4
        #expect(log.value == [12])
        withExtendedLifetime(token) {}
    }

    @Test func combineLatestObservesOnlyWhileObservedAndIsFreedAfter() {
        let a = Var(1)
        let b = Messenger<Int>()
        weak var weakCombined: CombinedLatest<Var<Int>, Messenger<Int>>?
        let observer = FreeObserver()
        do {
            let combined = combineLatest(a, b)
            weakCombined = combined
            #expect(a.messenger.observationCount == 0)
            observer.observe(combined) { _ in }
        }
        #expect(weakCombined != nil)
        #expect(a.messenger.observationCount == 1 && b.observationCount == 1)
        observer.stopObserving()
        #expect(weakCombined == nil)
        #expect(a.messenger.observationCount == 0 && b.observationCount == 0)
    }

    @Test func aHandlerThatChangesASourceIsQueuedAndTheLastTupleIsTheLatest() {
        let a = Var(0)
        let b = Var(0)
        let combined = combineLatest(a.new(), b.new())
        let log = EventLog()
        let token = combined.subscribe { x, y in
            log.append("\(x),\(y)")
            if x == 1, y == 0 { b.value = 1 }
        }
        a.value = 1
        #expect(log.entries == ["1,0", "1,1"])
        withExtendedLifetime(token) {}
    }
}
