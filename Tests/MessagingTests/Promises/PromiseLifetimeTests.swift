import Testing

@testable import Messaging

@Suite struct PromiseLifetimeTests {
    @Test func pendingWorkKeepsThePromiseAndItsHandlersAliveUntilTheFulfilment() {
        let work = PendingWork()
        weak var weakPromise: Promise<Int>?
        weak var weakProbe: Probe?
        let log = EventLog()
        do {
            let probe = Probe()
            weakProbe = probe
            let promise = Promise<Int> { promise in work.start { promise.fulfill(1) } }
            promise.whenFulfilled { value in withExtendedLifetime(probe) { log.append("\(value)") } }
            weakPromise = promise
        }
        #expect(weakPromise != nil)
        #expect(weakProbe != nil)

        work.completeAll()

        #expect(log.entries == ["1"])
        #expect(weakPromise == nil)
        #expect(weakProbe == nil)
    }

    @Test func aFulfilledPromiseLetsGoOfItsHandlersAtOnce() {
        let promise = Promise<Int>()
        weak var weakProbe: Probe?
        do {
            let probe = Probe()
            weakProbe = probe
            promise.whenFulfilled { _ in withExtendedLifetime(probe) {} }
            _ = promise.map { value in withExtendedLifetime(probe) { value } }
        }
        #expect(weakProbe != nil)
        promise.fulfill(1)
        #expect(weakProbe == nil)
        #expect(promise._waiterCount == 0)
        withExtendedLifetime(promise) {}
    }

    @Test func aPromiseThatIsNeverFulfilledFreesEverythingOnceItsWorkIsGone() {
        let work = PendingWork()
        weak var weakPromise: Promise<Int>?
        weak var weakEnd: Promise<String>?
        weak var weakProbe: Probe?
        let log = EventLog()
        do {
            let probe = Probe()
            weakProbe = probe
            let promise = Promise<Int> { promise in work.start { promise.fulfill(1) } }
            weakPromise = promise
            weakEnd = promise.then { _ in Promise<Int>() }.map { "\($0)" }.whenFulfilled { _ in
                withExtendedLifetime(probe) { log.append("called") }
            }
        }
        #expect(weakPromise != nil)
        #expect(weakEnd != nil)

        work.abandonAll()

        #expect(weakPromise == nil)
        #expect(weakEnd == nil)
        #expect(weakProbe == nil)
        #expect(log.entries == [])
    }

    @Test func aChainIsKeptAliveByTheWorkOfThePromiseItWaitsFor() {
        let api = ExampleAPI()
        weak var weakThen: Promise<String>?
        let weakSecond = WeakReference<Promise<String>>()
        let log = EventLog()
        do {
            weakThen = promise { api.getInt() }.then { int in
                let second = api.getString(takeInt: int)
                weakSecond.object = second
                return second
            }.whenFulfilled { log.append($0) }
        }
        api.work.completeAll()
        // The first promise is gone; the second's work now keeps the chain.
        #expect(weakSecond.object != nil)
        #expect(weakThen != nil)
        api.work.completeAll()
        #expect(log.entries == ["string 7"])
        #expect(weakSecond.object == nil)
        #expect(weakThen == nil)
    }

    @Test(arguments: [1_000, 100_000])
    func aLongChainThatIsNeverFulfilledIsFreedWhenItsWorkIsGone(length: Int) {
        let work = PendingWork()
        weak var weakEnd: Promise<Int>?
        do {
            var end = Promise<Int> { promise in work.start { promise.fulfill(0) } }
            for _ in 0..<length {
                end = end.map { $0 + 1 }
            }
            weakEnd = end
        }
        #expect(weakEnd != nil)
        // Released on a thread with a small stack: freeing the chain must not overflow it.
        #expect(runOnThreads(1) { _ in work.abandonAll() })
        #expect(weakEnd == nil)
    }

    @Test func anObserverOfAPromiseDoesNotKeepIt() {
        weak var weakPromise: Promise<Int>?
        let observer = FreeObserver()
        do {
            let promise = Promise<Int>()
            observer.observe(promise) { _ in }
            weakPromise = promise
            #expect(observer.isObserving(promise))
        }
        #expect(weakPromise == nil)
    }
}
