import Messaging
import Testing

@Suite("Weak observables: observe through a wrapper that does not keep the origin alive")
struct WeakObservableTests {
    @Test("SwiftObserver's example: observing weakNumber receives number's updates")
    func observingThroughTheWrapper() {
        let number = Var(12)
        let weakNumber = number.weak()
        let observer = FreeObserver()
        let received = Locked<[Int]>([])
        observer.observe(weakNumber) { update in received.withLock { $0.append(update.new) } }
        number.value = 13
        weakNumber.send(Update(13, 14))
        #expect(received.value == [13, 14])
        var weakNumbers: [Weak<Var<Int>>] = []
        weakNumbers.append(weakNumber)
        #expect(weakNumbers.first?.origin === number)
        withExtendedLifetime(observer) {}
    }

    @Test("the wrapper and its observations keep neither the origin nor its messenger alive")
    func doesNotKeepTheOriginAlive() {
        var number: Var<Int>? = Var(0)
        weak let weakOrigin = number
        let wrapper = number!.weak()
        let observer = FreeObserver()
        observer.observe(wrapper) { _ in }
        #expect(observer.isObserving(wrapper))
        #expect(observer.isObserving(number!))
        number = nil
        #expect(weakOrigin == nil)
        #expect(wrapper.origin == nil)
        #expect(!observer.isObserving(wrapper))
        #expect(observer.subscriptions.isEmpty)
    }

    @Test("observing a wrapper whose origin died observes nothing, and leaves nothing behind")
    func observingADeadOrigin() {
        let wrapper = Var(0).weak()
        let observer = FreeObserver()
        observer.observe(wrapper) { _ in Issue.record("a dead origin sent a message") }
        wrapper.send(Update(0, 1))
        #expect(!observer.isObserving(wrapper))
        #expect(observer.subscriptions.isEmpty)
        #expect(wrapper.messenger.observationCount == 0)
    }

    @Test("an origin observed directly and through its wrapper is one observable")
    func oneObservable() {
        let number = Var(0)
        let wrapper = number.weak()
        let observer = FreeObserver()
        observer.observe(number) { _ in }
        observer.observe(wrapper) { _ in }
        #expect(observer.subscriptions.count == 1)
        #expect(number.messenger.observationCount == 2)
        observer.stopObserving(wrapper)
        #expect(number.messenger.observationCount == 0)
        #expect(!observer.isObserving(number))
    }
}
