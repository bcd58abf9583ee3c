import Messaging
import Testing

@Suite("Two-way mappings of a variable")
struct MappedVarTests {
    @Test func readingMapsAndWritingWritesTheVariableThroughTheInverse() {
        let celsius = Var(20)
        let fahrenheit = celsius.map({ $0 * 9 / 5 + 32 }, inverse: { ($0 - 32) * 5 / 9 })
        #expect(fahrenheit.value == 68)
        fahrenheit.value = 212
        #expect(celsius.value == 100)
        #expect(fahrenheit.value == 212)
        #expect(fahrenheit.latestMessage == Update(212, 212))
    }

    @Test func sendsTheMappedUpdateOfEveryChangeOfEitherSide() {
        let celsius = Var(20)
        let fahrenheit = celsius.map({ $0 * 9 / 5 + 32 }, inverse: { ($0 - 32) * 5 / 9 })
        let log = Locked<[Update<Int>]>([])
        let token = fahrenheit.subscribe { update in log.withLock { $0.append(update) } }
        celsius.value = 100
        fahrenheit.value = 32
        #expect(log.value == [Update(68, 212), Update(212, 32)])
        #expect(celsius.value == 0)
        withExtendedLifetime(token) {}
    }

    @Test func anUpdateThatKeepsTheMappedValueSendsNothing() {
        let count = Var(3)
        let isEmpty = count.map({ $0 == 0 }, inverse: { $0 ? 0 : 1 })
        let log = Locked<[Update<Bool>]>([])
        let token = isEmpty.subscribe { update in log.withLock { $0.append(update) } }
        count.value = 4  // still not empty
        count.value = 0
        isEmpty.value = false  // writes 1
        #expect(log.value == [Update(false, true), Update(true, false)])
        #expect(count.value == 1)
        withExtendedLifetime(token) {}
    }

    @Test func aLossyInverseStoresWhatTheVariableCanHold() {
        let tenths = Var(0)
        let whole = tenths.map({ Double($0) / 10 }, inverse: { Int(($0 * 10).rounded(.down)) })
        whole.value = 1.25
        #expect(tenths.value == 12)
        #expect(whole.value == 1.2)  // what the variable really holds, mapped
    }

    @Test func aWriteWithAnAuthorReachesObserversWithThatAuthor() {
        let variable = Var("a")
        let upper = variable.map({ $0.uppercased() }, inverse: { $0.lowercased() })
        let editor = Probe()
        let authors = Locked<[ObjectIdentifier]>([])
        let spy = Spy("spy")
        spy.observe(upper) { _, author in
            authors.withLock { $0.append(ObjectIdentifier(author)) }
        }
        upper.set("B", as: editor)
        #expect(variable.value == "b")
        #expect(authors.value == [ObjectIdentifier(editor)])
        withExtendedLifetime(spy) {}
    }

    @Test func observesTheVariableOnlyWhileObservedAndThenLetsGo() {
        let variable = Var(1)
        weak var weakMapping: MappedVar<Int, Int>?
        do {
            let mapping = variable.map({ $0 * 2 }, inverse: { $0 / 2 })
            weakMapping = mapping
            #expect(variable.messenger.observationCount == 0)
            let token = mapping.subscribe { _ in }
            #expect(variable.messenger.observationCount == 1)
            token.stopObserving()
            #expect(variable.messenger.observationCount == 0)
        }
        #expect(weakMapping == nil)
    }

    @Test func replayStartsWithTheCurrentMappedValue() {
        let variable = Var(2)
        let doubled = variable.map({ $0 * 2 }, inverse: { $0 / 2 })
        let log = Locked<[Update<Int>]>([])
        let token = doubled.subscribe(replayingLatest: true) { update in log.withLock { $0.append(update) } }
        variable.value = 3
        #expect(log.value == [Update(4, 4), Update(4, 6)])
        withExtendedLifetime(token) {}
    }

    @Test func writesFromEightThreadsEndInOneOfTheWrittenValuesAndEveryUpdateChains() {
        let variable = Var(0)
        let negated = variable.map({ -$0 }, inverse: { -$0 })
        let log = Locked<[Update<Int>]>([])
        let token = negated.subscribe { update in log.withLock { $0.append(update) } }
        #expect(
            runOnThreads(8) { thread in
                for step in 1...500 { negated.value = -(thread * 1_000 + step) }
            })
        #expect(waitUntilDelivered(variable.messenger, negated.messenger))
        let updates = log.value
        #expect(!updates.isEmpty)
        // Each update starts where the previous one ended, and the last one ends at the value.
        for (previous, next) in zip(updates, updates.dropFirst()) { #expect(previous.new == next.old) }
        #expect(updates.last?.new == negated.value)
        #expect(negated.value == -variable.value)
        withExtendedLifetime(token) {}
    }
}
