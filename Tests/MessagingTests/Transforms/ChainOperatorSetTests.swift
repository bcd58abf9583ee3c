import Testing

@testable import Messaging

/// The operators that the chains after a hop lacked until every chain type got the same set.
@Suite("Chain operator set: the operators of a plain chain exist after a hop too")
struct ChainOperatorSetTests {
    @Test("select after onMainActor(): the equal messages, as Void, in both forms")
    @MainActor
    func selectOnTheMainActor() {
        let source = Messenger<String>()
        let observer = FreeObserver()
        let log = MainActorLog()
        observer.observe(source).onMainActor().select("go").map { "selected" }.receive { log.append($0) }
        observer.observe(source).onMainActor().select("go") { log.append("handler") }
        for message in ["wait", "go", "stop", "go"] { source.send(message) }
        #expect(log.entries == ["selected", "handler", "selected", "handler"])
        withExtendedLifetime(observer) {}
    }

    @Test("select after on(actor): the equal messages, as Void, in both forms")
    func selectOnAnActor() async {
        let source = Messenger<String>()
        let observer = FreeObserver()
        let target = HopTarget()
        observer.observe(source).on(target).select("go").map { _, _ in "selected" }.receive { target, text in
            target.append(text)
        }
        observer.observe(source).on(target).select("go") { target in target.append("handler") }
        for message in ["wait", "go", "stop", "go"] { source.send(message) }
        await waitForPendingDeliveries()
        #expect(await target.entries == ["selected", "handler", "selected", "handler"])
        withExtendedLifetime(observer) {}
    }
}
