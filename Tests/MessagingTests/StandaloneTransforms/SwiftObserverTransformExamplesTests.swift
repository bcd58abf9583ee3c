import Messaging
import Testing

/// SwiftObserver's examples of transforms as observables, with the module's names.
@Suite("Standalone transforms: the SwiftObserver examples")
struct SwiftObserverTransformExamplesTests {
    @Test func makingTransformsObservable() {
        let title = Var<String?>()
        let titleLength = title.new().unwrap("Untitled").map { $0.count }
        let observer = FreeObserver()
        let lengths = Locked<[Int]>([])
        observer.observe(titleLength) { titleLength in lengths.withLock { $0.append(titleLength) } }
        title.value = "Sky"
        title.value = nil
        #expect(lengths.value == [3, 8])
    }

    @Test func replacingTheOrigin() {
        let titleLength = Var("Dummy Title").new().map { $0.count }
        let title = Var("Real Title")
        titleLength.origin.origin = title
        #expect(titleLength.latestMessage == 10)
    }

    @Test func thePrebuiltTransforms() {
        let messenger = Messenger<String>()
        let stringToInt = messenger.map { Int($0) }
        let shortMessages = messenger.filter { $0.count < 10 }
        let myNotifier = messenger.select("my notification")
        let errorCode = Var<Int>()
        let newErrorCode = errorCode.new()
        let errorCodes = Messenger<Int?>()
        let errorAlert = errorCodes.unwrap()
        let points = Messenger<Int?>()
        let pointsToShow = points.unwrap(0)

        let observer = FreeObserver()
        let log = EventLog()
        observer.observe(stringToInt) { log.append("int:\(String(describing: $0))") }
        observer.observe(shortMessages) { log.append("short:\($0)") }
        observer.observe(myNotifier) { log.append("notified") }
        observer.observe(newErrorCode) { log.append("code:\($0)") }
        observer.observe(errorAlert) { log.append("alert:\($0)") }
        observer.observe(pointsToShow) { log.append("points:\($0)") }

        messenger.send("my notification")
        errorCode.value = 404
        errorCodes.send(nil)
        errorCodes.send(500)
        points.send(nil)
        #expect(
            log.entries == [
                "int:nil", "notified", "code:404", "alert:500", "points:0",
            ])
    }

    @Test func filteringByAuthor() {
        let messenger = Messenger<String>()
        let joe = Probe()
        let hal9000 = Probe()
        let friends = [ObjectIdentifier(joe)]
        let friendMessages = messenger.filterAuthor { friends.contains(ObjectIdentifier($0)) }
        let joesMessages = messenger.from(joe)
        let humanMessages = messenger.notFrom(hal9000)
        let observer = FreeObserver()
        let log = EventLog()
        observer.observe(friendMessages) { log.append("friend:\($0)") }
        observer.observe(joesMessages) { log.append("joe:\($0)") }
        observer.observe(humanMessages) { log.append("human:\($0)") }
        messenger.send("hi", from: joe)
        messenger.send("I'm sorry, Dave", from: hal9000)
        #expect(log.entries == ["friend:hi", "joe:hi", "human:hi"])
    }

    @Test func theFourKindsOfCaches() {
        let number = Var(3)
        #expect(number.latestMessage == Update(3, 3))
        let messenger = Messenger<Int?>()
        let cached = messenger.cache()
        let token = cached.subscribe { _ in }
        messenger.send(7)
        let latest: Int? = cached.latestMessage  // an optional, not a double optional
        #expect(latest == 7)
        #expect(number.new().latestMessage == 3)
        withExtendedLifetime(token) {}
    }

    @Test func weakObservablesAsOrigins() {
        let number = Var(12)
        let weakNumber = number.weak()
        let doubled = weakNumber.map { $0.new * 2 }
        let observer = FreeObserver()
        let log = Locked<[Int]>([])
        observer.observe(doubled) { value in log.withLock { $0.append(value) } }
        number.value = 21
        #expect(log.value == [42])
    }
}
