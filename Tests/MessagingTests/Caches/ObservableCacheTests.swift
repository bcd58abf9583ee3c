import Foundation
import Messaging
import Testing

/// SwiftObserver's custom cache: a messenger whose latest message is its state.
private final class Model: Messenger<String>, ObservableCache, @unchecked Sendable {  // `state` is a `Var`
    let state = Var("initial state")
    var latestMessage: String { state.value }
}

@Suite("Caches: latestMessage, send() and whenCached")
struct ObservableCacheTests {
    @Test("a Var's latest message is its value, twice")
    func variableLatestMessage() {
        let number = Var(7)
        #expect(number.latestMessage == Update(7, 7))
        number.value = 8
        #expect(number.latestMessage == Update(8, 8))
    }

    @Test("send() re-sends the latest message of a custom cache")
    func sendResendsLatest() {
        let model = Model()
        let received = Locked<[String]>([])
        let token = model.subscribe { message in received.withLock { $0.append(message) } }
        model.send()
        model.state.value = "changed"
        model.send()
        #expect(received.value == ["initial state", "changed"])
        withExtendedLifetime(token) {}
    }

    @Test("whenCached delivers at once when the latest message is not nil")
    func whenCachedAtOnce() {
        let profile = Var<String?>("Ada")
        let received = Locked<[String]>([])
        UpdateCache(profile).whenCached { value in received.withLock { $0.append(value) } }
        #expect(received.value == ["Ada"])
    }

    @Test("whenCached waits for the first non-nil message, and delivers it once")
    func whenCachedWaits() {
        let profile = Var<String?>(nil)
        let received = Locked<[String]>([])
        let cache = UpdateCache(profile)
        weak var weakWaiter: FreeObserver?
        do {
            let waiter = cache.whenCached { value in received.withLock { $0.append(value) } }
            weakWaiter = waiter
        }
        #expect(received.value.isEmpty)
        #expect(weakWaiter != nil)  // the observation keeps it while it waits
        profile.value = nil
        profile.value = "Grace"
        profile.value = "Hedy"
        #expect(received.value == ["Grace"])
        #expect(weakWaiter == nil)  // done: freed
        #expect(cache.messenger.observationCount == 0)
    }

    @Test("a waiting whenCached ends without a call when the cache dies")
    func whenCachedCacheDies() {
        let received = Locked<[String]>([])
        weak var weakWaiter: FreeObserver?
        do {
            let cache = UpdateCache(Var<String?>(nil))
            weakWaiter = cache.whenCached { value in received.withLock { $0.append(value) } }
            #expect(weakWaiter != nil)
            withExtendedLifetime(cache) {}
        }
        #expect(weakWaiter == nil)
        #expect(received.value.isEmpty)
    }
}

/// A cache of a variable's new value, written by hand as a user would.
private final class UpdateCache: ObservableCache, @unchecked Sendable {  // immutable
    let messenger = Messenger<String?>()
    let variable: Var<String?>
    let token: ObservationToken
    init(_ variable: Var<String?>) {
        self.variable = variable
        let messenger = messenger
        token = variable.subscribe { messenger.send($0.new) }
    }
    var latestMessage: String? { variable.value }
}
