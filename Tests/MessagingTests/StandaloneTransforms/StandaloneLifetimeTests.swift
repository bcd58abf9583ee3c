import Messaging
import Testing

@Suite("Standalone transforms: sharing, origin and lifetime")
struct StandaloneLifetimeTests {
    @Test(arguments: [1, 2, 10])
    func observersShareOneObservationOfTheOrigin(observers count: Int) {
        let origin = Messenger<Int>()
        let doubled = origin.map { $0 * 2 }
        #expect(origin.observationCount == 0)  // unobserved: costs nothing per message
        let log = EventLog()
        let spies = (0..<count).map { Spy("s\($0)") }
        for spy in spies { spy.observe(doubled) { log.append("\(spy.name):\($0)") } }
        #expect(origin.observationCount == 1)
        #expect(doubled.messenger.observationCount == count)
        origin.send(1)
        #expect(log.entries == spies.map { "\($0.name):2" })
        for spy in spies { spy.stopObserving() }
        #expect(origin.observationCount == 0)
    }

    @Test func replacingTheOriginMovesTheObservation() {
        let first = Messenger<Int>()
        let second = Messenger<Int>()
        let doubled = first.map { $0 * 2 }
        let log = Locked<[Int]>([])
        let token = doubled.subscribe { value in log.withLock { $0.append(value) } }
        first.send(1)
        doubled.origin = second
        #expect(first.observationCount == 0)
        #expect(second.observationCount == 1)
        first.send(10)
        second.send(2)
        #expect(log.value == [2, 4])
        withExtendedLifetime(token) {}
    }

    @Test func replacingTheOriginOfAnUnobservedTransformObservesNothing() {
        let first = Messenger<Int>()
        let second = Messenger<Int>()
        let doubled = first.map { $0 * 2 }
        doubled.origin = second
        #expect(second.observationCount == 0)
        #expect(doubled.origin === second)
    }

    @Test func theSeedsOriginOfOriginReplacement() {
        let titleLength = Var("Dummy Title").new().map { $0.count }
        let title = Var("Real Title")
        titleLength.origin.origin = title
        let log = Locked<[Int]>([])
        let token = titleLength.subscribe { length in log.withLock { $0.append(length) } }
        title.value = "Real"
        #expect(log.value == [4])
        #expect(titleLength.latestMessage == 4)
        withExtendedLifetime(token) {}
    }

    @Test func anUnobservedTransformIsFreedWithItsOrigin() {
        weak var weakTransform: Mapped<Var<Int>, Int>?
        weak var weakOrigin: Var<Int>?
        do {
            let origin = Var(1)
            let transform = origin.map { $0.new * 2 }
            weakTransform = transform
            weakOrigin = origin
        }
        #expect(weakTransform == nil)
        #expect(weakOrigin == nil)
    }

    @Test func anObservedTransformLivesAsLongAsTheObservation() {
        let observer = FreeObserver()
        let log = Locked<[Int]>([])
        weak var weakTransform: Mapped<Var<Int>, Int>?
        weak var weakOrigin: Var<Int>?
        do {
            let origin = Var(1)
            let transform = origin.map { $0.new * 2 }
            weakTransform = transform
            weakOrigin = origin
            observer.observe(transform) { value in log.withLock { $0.append(value) } }
        }
        #expect(weakTransform != nil)  // nobody holds it but the observation
        weakOrigin?.value = 5
        #expect(log.value == [10])
        observer.stopObserving()
        #expect(weakTransform == nil)
        #expect(weakOrigin == nil)
    }

    @Test func anObserversDeathFreesTheTransformItObserved() {
        weak var weakTransform: Filtered<Messenger<Int>, Int>?
        let origin = Messenger<Int>()
        do {
            let observer = FreeObserver()
            let transform = origin.filter { $0 > 0 }
            weakTransform = transform
            observer.observe(transform) { _ in }
            #expect(origin.observationCount == 1)
        }
        #expect(weakTransform == nil)
        #expect(origin.observationCount == 0)
    }

    @Test func anInlineChainKeepsDeliveringWhileItsOriginIsHeldElsewhere() {
        let number = Var(1)
        let observer = FreeObserver()
        let log = Locked<[Int]>([])
        observer.observe(number.map { $0.new * 2 }.filter { $0 > 2 }) { value in log.withLock { $0.append(value) } }
        number.value = 1
        number.value = 2
        number.value = 3
        #expect(log.value == [4, 6])
        #expect(number.messenger.observationCount == 1)
        observer.stopObserving()
        #expect(number.messenger.observationCount == 0)
    }

    @Test func aDeadOriginEndsTheObservationsOfItsTransforms() {
        var number: Var<Int>? = Var(1)
        let weakNumber = number!.weak()
        let doubled = weakNumber.map { $0.new * 2 }
        let spy = Spy("spy")
        let log = Locked<[Int]>([])
        spy.observe(doubled) { value in log.withLock { $0.append(value) } }
        let token = doubled.subscribe { _ in }
        number?.value = 2
        #expect(log.value == [4])
        #expect(doubled.messenger.observationCount == 2)
        number = nil
        #expect(doubled.messenger.observationCount == 0)
        #expect(!spy.isObserving(doubled))
        #expect(!token.isObserving)
    }

    @Test func anOriginThatStopsBeingObservedEndsTheObservationsOfItsTransforms() {
        let number = Var(1)
        let doubled = number.map { $0.new * 2 }
        let tripled = doubled.map { $0 * 3 }
        let spy = Spy("spy")
        spy.observe(doubled) { _ in }
        let token = tripled.subscribe { _ in }
        #expect(number.messenger.observationCount == 1)
        number.stopBeingObserved()
        // As when the origin dies: the transforms do not go silent, their observations end, down
        // the chain.
        #expect(doubled.messenger.observationCount == 0)
        #expect(tripled.messenger.observationCount == 0)
        #expect(!spy.isObserving(doubled))
        #expect(!token.isObserving)
        // Observing again starts afresh.
        let log = Locked<[Int]>([])
        let again = doubled.subscribe { value in log.withLock { $0.append(value) } }
        number.value = 5
        #expect(log.value == [10])
        withExtendedLifetime(again) {}
    }

    @Test(.timeLimit(.minutes(10))) func aDeadOriginFinishesTheAsyncSequencesOfItsTransforms() async {
        var origin: Messenger<Int>? = Messenger()
        let doubled = origin!.weak().map { $0 * 2 }
        let messages = doubled.messages
        // A child task: if the sequence never finished, the time limit's cancellation would end
        // the loop, and the test would see that it was cancelled rather than finished.
        async let consumed: (received: [Int], wasCancelled: Bool) = {
            var received: [Int] = []
            for await value in messages { received.append(value) }
            return (received, Task.isCancelled)
        }()
        #expect(await eventually { doubled.messenger.observationCount == 1 })
        origin?.send(1)
        origin = nil
        // The loop ends: the sequence is told that no message will come.
        let (received, wasCancelled) = await consumed
        #expect(received == [2])
        #expect(!wasCancelled)
    }

    @Test func aDeadOriginEndsAChainOfTransforms() {
        weak var weakEnd: Mapped<Filtered<Weak<Messenger<Int>>, Int>, Int>?
        var origin: Messenger<Int>? = Messenger()
        let observer = FreeObserver()
        do {
            let end = origin!.weak().filter { $0 > 0 }.map { $0 + 1 }
            weakEnd = end
            observer.observe(end) { _ in }
        }
        #expect(weakEnd != nil)
        origin = nil
        #expect(weakEnd == nil)  // its observations ended, and nobody held it
        #expect(!observer.isObserving(Messenger<Int>()))
    }

    @Test func aTransformHoldsItsOriginStrongly() {
        weak var weakOrigin: Messenger<Int>?
        let transform: Mapped<Messenger<Int>, Int>
        do {
            let origin = Messenger<Int>()
            weakOrigin = origin
            transform = origin.map { $0 }
        }
        #expect(weakOrigin != nil)
        withExtendedLifetime(transform) {}
    }

    @Test func aHandlerThatSendsOnTheOriginIsQueuedNotNested() {
        let origin = Messenger<Int>()
        let doubled = origin.map { $0 * 2 }
        let log = EventLog()
        let token = doubled.subscribe { value in
            log.append("begin \(value)")
            if value < 8 { origin.send(value) }
            log.append("end \(value)")
        }
        origin.send(1)
        #expect(log.entries == ["begin 2", "end 2", "begin 4", "end 4", "begin 8", "end 8"])
        withExtendedLifetime(token) {}
    }

    @Test func aHandlerThatStopsObservingTheTransformEndsTheOriginsObservation() {
        let origin = Messenger<Int>()
        let doubled = origin.map { $0 * 2 }
        let observer = FreeObserver()
        let log = Locked<[Int]>([])
        observer.observe(doubled) { value in
            log.withLock { $0.append(value) }
            observer.stopObserving()
        }
        origin.send(1)
        origin.send(2)
        #expect(log.value == [2])
        #expect(origin.observationCount == 0)
    }

    @Test func stoppingAndRestartingObservationResumes() {
        let origin = Messenger<Int>()
        let doubled = origin.map { $0 * 2 }
        let log = Locked<[Int]>([])
        var token: ObservationToken? = doubled.subscribe { value in log.withLock { $0.append(value) } }
        origin.send(1)
        token = nil
        origin.send(2)
        token = doubled.subscribe { value in log.withLock { $0.append(value) } }
        origin.send(3)
        #expect(log.value == [2, 6])
        withExtendedLifetime(token) {}
    }
}
