import Messaging
import Testing

/// Observes `source` with a token and records each message, in order.
private func record<Source: ObservableSource>(
    _ source: Source
) -> (Locked<[Source.Message]>, ObservationToken) where Source.Message: Sendable {
    let log = Locked<[Source.Message]>([])
    let token = source.subscribe { message in log.withLock { $0.append(message) } }
    return (log, token)
}

@Suite("Standalone transforms: each operator")
struct StandaloneOperatorTests {
    @Test func mapTransformsEachMessage() {
        let messenger = Messenger<String>()
        let (log, token) = record(messenger.map { Int($0) })
        messenger.send("12")
        messenger.send("x")
        #expect(log.value == [12, nil])
        withExtendedLifetime(token) {}
    }

    @Test func newSendsEachUpdatesNewValue() {
        let number = Var(1)
        let (log, token) = record(number.new())
        number.value = 2
        number.value = 3
        #expect(log.value == [2, 3])
        withExtendedLifetime(token) {}
    }

    @Test func filterLetsThroughOnlyWhatPasses() {
        let messenger = Messenger<String>()
        let (log, token) = record(messenger.filter { $0.count < 3 })
        for text in ["a", "long", "bc", "longer"] { messenger.send(text) }
        #expect(log.value == ["a", "bc"])
        withExtendedLifetime(token) {}
    }

    @Test func selectSendsVoidForMatchesOnly() {
        let messenger = Messenger<String>()
        let count = Locked(0)
        let notifier: Filtered<Messenger<String>, Void> = messenger.select("ping")
        let token = notifier.subscribe { count.withLock { $0 += 1 } }
        for text in ["ping", "pong", "ping"] { messenger.send(text) }
        #expect(count.value == 2)
        withExtendedLifetime(token) {}
    }

    @Test func compactMapDropsNil() {
        let messenger = Messenger<String>()
        let (log, token) = record(messenger.compactMap { Int($0) })
        for text in ["1", "x", "3"] { messenger.send(text) }
        #expect(log.value == [1, 3])
        withExtendedLifetime(token) {}
    }

    @Test func unwrapDropsNil() {
        let messenger = Messenger<Int?>()
        let (log, token) = record(messenger.unwrap())
        for value in [1, nil, 3] { messenger.send(value) }
        #expect(log.value == [1, 3])
        withExtendedLifetime(token) {}
    }

    @Test func unwrapWithDefaultReplacesNil() {
        let messenger = Messenger<Int?>()
        let (log, token) = record(messenger.unwrap(0))
        for value in [1, nil, 3] { messenger.send(value) }
        #expect(log.value == [1, 0, 3])
        withExtendedLifetime(token) {}
    }

    @Test func distinctDropsRepeats() {
        let messenger = Messenger<Int>()
        let (log, token) = record(messenger.distinct())
        for value in [1, 1, 2, 2, 2, 1] { messenger.send(value) }
        #expect(log.value == [1, 2, 1])
        withExtendedLifetime(token) {}
    }

    @Test(arguments: [0, 1, 3, 10])
    func discardDropsTheFirstMessages(count: Int) {
        let messenger = Messenger<Int>()
        let (log, token) = record(messenger.discard(first: count))
        for value in 0..<5 { messenger.send(value) }
        #expect(log.value == Array(Swift.min(count, 5)..<5))
        withExtendedLifetime(token) {}
    }

    @Test func authorFiltersUseTheOriginsAuthor() {
        let messenger = Messenger<String>()
        let joe = Probe()
        let hal = Probe()
        let (fromJoe, token1) = record(messenger.from(joe))
        let (notFromHal, token2) = record(messenger.notFrom(hal))
        let (byFilter, token3) = record(messenger.filterAuthor { $0 === hal })
        messenger.send("joe", from: joe)
        messenger.send("hal", from: hal)
        messenger.send("self")
        #expect(fromJoe.value == ["joe"])
        #expect(notFromHal.value == ["joe", "self"])
        #expect(byFilter.value == ["hal"])
        withExtendedLifetime((token1, token2, token3)) {}
    }

    @Test func aTransformForwardsTheAuthor() {
        let messenger = Messenger<Int>()
        let mapped = messenger.map { $0 * 2 }
        let author = Probe()
        let authors = Locked<[ObjectIdentifier]>([])
        let spy = Spy("spy")
        spy.observe(mapped) { _, author in authors.withLock { $0.append(ObjectIdentifier(author)) } }
        messenger.send(1, from: author)
        messenger.send(2)
        #expect(authors.value == [ObjectIdentifier(author), ObjectIdentifier(messenger)])
    }

    @Test func chainsRunEveryStageInOrder() {
        let numbers = Messenger<Int>()
        let (log, token) = record(numbers.map { "\($0)" }.filter { $0.count > 1 }.map { Int($0) }.unwrap())
        for value in [1, 22, 3, 456] { numbers.send(value) }
        #expect(log.value == [22, 456])
        withExtendedLifetime(token) {}
    }

    @Test func explicitInitializersMatchTheOperators() {
        let messenger = Messenger<Int>()
        let (doubled, token1) = record(Mapped(messenger) { $0 * 2 })
        let (odd, token2) = record(Filtered(messenger) { value, _ in value % 2 == 1 ? value : nil })
        for value in 1...3 { messenger.send(value) }
        #expect(doubled.value == [2, 4, 6])
        #expect(odd.value == [1, 3])
        withExtendedLifetime((token1, token2)) {}
    }

    @Test func sendingThroughATransformReachesItsObservers() {
        let messenger = Messenger<Int>()
        let mapped = messenger.map { $0 * 2 }
        let (log, token) = record(mapped)
        mapped.send(7)
        #expect(log.value == [7])
        withExtendedLifetime(token) {}
    }
}

@Suite("Standalone transforms: caches")
struct StandaloneCacheTests {
    @Test func cacheOfNonOptionalMessagesSendsOptionals() {
        let messenger = Messenger<Int>()
        let cache = messenger.cache()
        #expect(type(of: cache.latestMessage) == Int?.self)
        #expect(cache.latestMessage == nil)
        let (log, token) = record(cache)
        messenger.send(4)
        #expect(cache.latestMessage == 4)
        #expect(log.value == [4])
        withExtendedLifetime(token) {}
    }

    @Test func cacheOfOptionalMessagesIsNeverADoubleOptional() {
        let messenger = Messenger<Int?>()
        let cache = messenger.cache()
        #expect(type(of: cache.latestMessage) == Int?.self)
        #expect(type(of: cache).Message.self == Int?.self)
        let (log, token) = record(cache)
        messenger.send(nil)
        #expect(cache.latestMessage == nil)
        messenger.send(5)
        #expect(cache.latestMessage == 5)
        #expect(log.value == [nil, 5])
        withExtendedLifetime(token) {}
    }

    @Test func sendingThroughACacheDoesNotChangeItsLatestMessage() {
        let messenger = Messenger<Int>()
        let cache = messenger.cache()
        let token = cache.subscribe { _ in }
        messenger.send(1)
        cache.send(9)
        #expect(cache.latestMessage == 1)
        withExtendedLifetime(token) {}
    }

    @Test func whenCachedOnACacheWaitsForTheFirstValue() {
        let profile = Var<String?>(nil)
        let received = Locked<[String]>([])
        profile.new().cache().whenCached { value in received.withLock { $0.append(value) } }
        profile.value = "Ada"
        profile.value = "Grace"
        #expect(received.value == ["Ada"])
        #expect(profile.messenger.observationCount == 0)
    }

    @Test func mapsOfCachesAreCachesOfTheMappedLatestMessage() {
        let title = Var<String?>("Title")
        let length = title.new().unwrap("Untitled").map { $0.count }
        #expect(length.latestMessage == 5)
        title.value = nil
        #expect(length.latestMessage == 8)
        func latest<Cache: ObservableCache>(_ cache: Cache) -> Cache.Message { cache.latestMessage }
        #expect(latest(title.new()) == nil)
    }

    @Test func aCacheAnswersOnlyFromWhatItForwardedWhileObserved() {
        let messenger = Messenger<Int>()
        let cache = messenger.cache()
        messenger.send(1)  // not observed: not forwarded
        #expect(cache.latestMessage == nil)
    }
}
