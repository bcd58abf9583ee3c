// The code examples of the SwiftObserver README (sections Observers, Observables, Memory
// management, Free observers, Messenger, Understanding Observable, Variables, Message authors),
// compiled with SwiftObserver's `Observable` spelled `ObservableSource`, and checked against what
// the text says they do. The Collaborator example of "Message authors" is in AuthorTests; the
// example of "Variables" that uses SwiftObserver's sugar (`<-`, comparing variables) is in the
// tests of the SwiftObserver compatibility layer.
//
// Swift 6: an observer's handlers are `@Sendable`, so where an example's handler records what it
// receives, it records into a thread-safe `EventLog`, `Locked` value or `ObjectLog` rather than
// into a captured `var`.

import Messaging
import Testing

@Suite("SwiftObserver's examples, with Observable spelled ObservableSource")
struct SwiftObserverExamplesTests {
    enum Color: Sendable {
        case blue, grey
    }

    final class Sky: ObservableSource, Sendable {
        static let shared = Sky()
        let messenger = Messenger<Color>()  // Message == Color
    }

    final class Dog: Observer {
        let receiver = Receiver()
    }

    class SuperModel {}

    class Model: SuperModel, ObservableSource {
        func foo() { send(.willUpdate) }
        func bar() { send(.didUpdate) }
        deinit { send(.willDie) }
        let messenger = Messenger<Event>()  // Message == Event
        enum Event { case willUpdate, didUpdate, willDie }
    }

    final class Controller {}

    // MARK: Introduction and Observers

    @Test("dog.observe(Sky.shared): the dog marvels at every color the sky changes to")
    func introduction() {
        withSharedState {
            let dog = Dog()
            let colors = Locked([Color]())
            dog.observe(Sky.shared) { color in
                // marvel at the sky changing its color
                colors.withLock { $0.append(color) }
            }

            Sky.shared.send(.blue)
            Sky.shared.send(.grey)

            #expect(colors.value == [.blue, .grey])
            dog.stopObserving(Sky.shared)
        }
    }

    @Test("an observer must be alive for its handlers to be called: there is no awareness after death")
    func noAwarenessAfterDeath() {
        let sky = Sky()
        let calls = Locked(0)
        do {
            let dog = Dog()
            dog.observe(sky) { _ in calls.withLock { $0 += 1 } }
            sky.send(.blue)
        }
        sky.send(.grey)

        #expect(calls.value == 1)
    }

    @Test("an observer can have several simultaneous observations of one observable, and isObserving tells")
    func multipleObservationsAndIsObserving() {
        let sky = Sky()
        let dog = Dog()
        let log = EventLog()
        #expect(!dog.isObserving(sky))

        dog.observe(sky) { log.append("first:\($0)") }
        dog.observe(sky) { log.append("second:\($0)") }
        sky.send(.blue)

        #expect(dog.isObserving(sky))
        #expect(log.entries == ["first:blue", "second:blue"])
    }

    // MARK: Observables

    @Test("anyone may call send, observers included; messages go out in the exact order send was called")
    func sendOrderWithSendsFromHandlers() {
        let sky = Sky()
        let dog = Dog()
        let cat = Dog()
        let log = EventLog()
        dog.observe(sky) { color in
            log.append("dog:\(color)")
            if color == .blue { sky.send(.grey) }  // an observer sends from its handler
        }
        cat.observe(sky) { log.append("cat:\($0)") }

        sky.send(.blue)

        #expect(log.entries == ["dog:blue", "cat:blue", "dog:grey", "cat:grey"])
        withExtendedLifetime((dog, cat)) {}
    }

    @Test("just starting to observe an observable does not make it send a message")
    func observingSendsNothing() {
        let sky = Sky()
        let dog = Dog()
        let calls = Locked(0)
        dog.observe(sky) { _ in calls.withLock { $0 += 1 } }

        #expect(calls.value == 0)
        withExtendedLifetime(dog) {}
    }

    // MARK: Memory management

    /// The four calls of "Memory management", with what the comment next to each promises.
    enum Stop: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case dogStopsObservingTheSky = "dog.stopObserving(Sky.shared)"
        case dogStopsObserving = "dog.stopObserving()"
        case skyStopsBeingObservedByTheDog = "Sky.shared.stopBeingObserved(by: dog)"
        case skyStopsBeingObserved = "Sky.shared.stopBeingObserved()"

        var testDescription: String { rawValue }
    }

    @Test("the four ways to stop observations", arguments: Stop.allCases)
    func memoryManagement(stop: Stop) {
        withSharedState {
            let dog = Dog()
            let cat = Dog()
            let moon = Sky()
            let log = EventLog()
            dog.observe(Sky.shared) { log.append("dog:\($0)") }
            dog.observe(moon) { log.append("dog-moon:\($0)") }
            cat.observe(Sky.shared) { log.append("cat:\($0)") }

            switch stop {
            case .dogStopsObservingTheSky: dog.stopObserving(Sky.shared)  // no more messages from the sky
            case .dogStopsObserving: dog.stopObserving()  // no more messages from anywhere
            case .skyStopsBeingObservedByTheDog: Sky.shared.stopBeingObserved(by: dog)  // no more messages to dog
            case .skyStopsBeingObserved: Sky.shared.stopBeingObserved()  // no more messages to anywhere
            }
            Sky.shared.send(.blue)
            moon.send(.grey)

            switch stop {
            case .dogStopsObservingTheSky, .skyStopsBeingObservedByTheDog:
                #expect(log.entries == ["cat:blue", "dog-moon:grey"])
            case .dogStopsObserving:
                #expect(log.entries == ["cat:blue"])
            case .skyStopsBeingObserved:
                #expect(log.entries == ["dog-moon:grey"])
            }
            Sky.shared.stopBeingObserved()
            withExtendedLifetime((dog, cat)) {}
        }
    }

    // MARK: Free observers

    @Test("observe(Sky.shared) and Sky.shared.observed observe through FreeObserver.shared, which can stop them")
    func freeObservers() {
        withSharedState {
            let log = EventLog()
            observe(Sky.shared) { color in
                // marvel at the sky changing its color
                log.append("observe:\(color)")
            }
            Sky.shared.observed { color in  // ... same
                log.append("observed:\(color)")
            }
            #expect(FreeObserver.shared.isObserving(Sky.shared))
            Sky.shared.send(.blue)

            FreeObserver.shared.stopObserving(Sky.shared)
            Sky.shared.send(.grey)

            #expect(log.entries == ["observe:blue", "observed:blue"])
        }
    }

    @Test("a FreeObserver of your own is a token: its observation lasts while you keep it")
    func freeObserverAsToken() {
        let sky = Sky()
        let log = Locked([Color]())
        var token: FreeObserver? = FreeObserver()
        token?.observe(sky) { color in log.withLock { $0.append(color) } }
        sky.send(.blue)

        token = nil
        sky.send(.grey)

        #expect(log.value == [.blue])
    }

    @Test("observeOnce and observedOnce: one message, then the observation and its FreeObserver die")
    func oneTimeObservations() {
        withSharedState {
            let log = EventLog()
            weak let first = observeOnce(Sky.shared) { color in
                // notice new color. observation has stopped.
                log.append("observeOnce:\(color)")
            }
            weak let second = Sky.shared.observedOnce { color in  // ... same
                log.append("observedOnce:\(color)")
            }
            #expect(first != nil && second != nil)

            Sky.shared.send(.blue)
            Sky.shared.send(.grey)

            #expect(log.entries == ["observeOnce:blue", "observedOnce:blue"])
            #expect(first == nil)
            #expect(second == nil)
        }
    }

    // MARK: Messenger

    @Test("a messenger sends nothing itself; anyone can send any message through it")
    func messenger() {
        let observer = Dog()
        let received = EventLog()
        let textMessenger = Messenger<String>()

        observer.observe(textMessenger) { textMessage in
            // respond to textMessage
            received.append(textMessage)
        }

        textMessenger.send("my message")

        #expect(received.entries == ["my message"])
        withExtendedLifetime(observer) {}
    }

    // MARK: Understanding Observable

    /// Anything generic over `ObservableSource` works with its messenger, as the protocol promises.
    static func messengerOf<Source: ObservableSource>(_ source: Source) -> Messenger<Source.Message> {
        source.messenger
    }

    @Test("having a messenger is what makes an observable; a messenger is its own messenger")
    func understandingObservable() {
        let textMessenger = Messenger<String>()
        let sky = Sky()

        #expect(Self.messengerOf(textMessenger) === textMessenger)
        #expect(Self.messengerOf(sky) === sky.messenger)
    }

    @Test("a custom observable sends its own events, even from deinit")
    func customObservableModel() {
        let observer = Dog()
        let events = EventLog()  // Swift 6: `Model.Event` is not `Sendable`, so the log holds names
        do {
            let model = Model()
            observer.observe(model) { events.append("\($0)") }
            model.foo()
            model.bar()
        }

        #expect(events.entries == ["willUpdate", "didUpdate", "willDie"])
        #expect(observer.subscriptions.isEmpty)
    }

    // MARK: Variables

    @Test("observing a variable: each change sends an Update with the old and the new value")
    func observingVariables() {
        let observer = Dog()
        let differences = Locked([Int]())
        let number = Var(42)

        observer.observe(number) { update in
            let whatsTheBigDifference = update.new - update.old
            differences.withLock { $0.append(whatsTheBigDifference) }
        }

        number.value = 50
        number.value = 45
        #expect(differences.value == [8, -5])
        withExtendedLifetime(observer) {}
    }

    @Test("variable.send() sends an update whose old and new value are both the current value")
    func sendingTheCurrentValue() {
        let observer = Dog()
        let updates = Locked([Update<Int>]())
        let number = Var(42)
        observer.observe(number) { update in updates.withLock { $0.append(update) } }

        number.send()

        #expect(updates.value == [Update(42, 42)])
        withExtendedLifetime(observer) {}
    }

    // MARK: Message authors

    @Test("send(_:from:) names an author; send(_:) makes the observable itself the author")
    func messageAuthors() {
        let observable = Sky()
        let observer = Dog()
        let author = Controller()
        let log = EventLog()
        observer.observe(observable) { message, author in
            // process message from author
            log.append("\(message) from \(author === observable ? "observable" : "author")")
        }

        observable.send(.blue, from: author)
        observable.send(.grey)

        #expect(log.entries == ["blue from author", "grey from observable"])
        withExtendedLifetime(observer) {}
    }

    @Test("number.set(42, as: controller) makes the controller the author of the update")
    func mutatingVariablesWithAnAuthor() {
        let observer = Dog()
        let controller = Controller()
        let authors = ObjectLog()
        let number = Var(0)
        observer.observe(number) { _, author in authors.append(author) }

        number.set(42, as: controller)  // controller becomes author of the update message

        #expect(number.value == 42)
        #expect(authors.objects.count == 1)
        #expect(authors.objects.first === controller)
        withExtendedLifetime(observer) {}
    }
}
