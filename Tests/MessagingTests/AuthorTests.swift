import Messaging
import Testing

@Suite("Authors: every message names who sent it")
struct AuthorTests {
    /// An observable that owns its messenger.
    final class Sky: ObservableSource {
        let messenger = Messenger<String>()
    }

    /// An object that sends or edits on behalf of someone.
    final class Controller: Sendable {}

    /// SwiftObserver's example: collaborators edit one shared text and ignore their own edits.
    // Swift 6: `Sendable`, because its handler captures `self` and handlers are `@Sendable`.
    final class Collaborator: Observer, Sendable {
        let receiver = Receiver()
        let name: String
        let sharedText: Var<String>
        let log: EventLog

        init(_ name: String, sharedText: Var<String>, log: EventLog) {
            self.name = name
            self.sharedText = sharedText
            self.log = log
        }

        func observeText() {
            observe(sharedText) { [unowned self] update, author in
                guard author !== self else { return }
                // someone else edited the text
                log.append("\(name):\(update.new)")
            }
        }

        func editText(_ text: String) {
            sharedText.set(text, as: self)  // identify as author when editing
        }
    }

    @Test("send(_:) on a messenger names the messenger as the author")
    func messengerIsTheDefaultAuthor() {
        let messenger = Messenger<String>()
        let authors = ObjectLog()
        let a = Spy("a")
        a.observe(messenger) { _, author in authors.append(author) }

        messenger.send("1")

        #expect(authors.objects.count == 1)
        #expect(authors.objects.first === messenger)
        withExtendedLifetime(a) {}
    }

    @Test("send(_:) on a custom ObservableSource names the object, not its messenger")
    func customSourceIsTheDefaultAuthor() {
        let sky = Sky()
        let authors = ObjectLog()
        let a = Spy("a")
        a.observe(sky) { _, author in authors.append(author) }

        sky.send("blue")

        #expect(authors.objects.count == 1)
        #expect(authors.objects.first === sky)
        #expect(authors.objects.first !== sky.messenger)
        withExtendedLifetime(a) {}
    }

    @Test("send(_:from:) names the given author, on a messenger and on a custom ObservableSource")
    func sendFromNamesTheAuthor() {
        let messenger = Messenger<String>()
        let sky = Sky()
        let controller = Controller()
        let log = EventLog()
        let a = Spy("a")
        a.observe(messenger) { message, author in log.append("a:\(message) from controller: \(author === controller)") }
        a.observe(sky) { message, author in log.append("a:\(message) from controller: \(author === controller)") }

        messenger.send("1", from: controller)
        sky.send("2", from: controller)
        messenger.send("3")

        #expect(
            log.entries == [
                "a:1 from controller: true",
                "a:2 from controller: true",
                "a:3 from controller: false",
            ]
        )
        withExtendedLifetime(a) {}
    }

    @Test("a Var's updates are authored by the variable, or by the author given to set(_:as:)")
    func varAuthors() {
        let number = Var(0)
        let controller = Controller()
        let authors = Locked([String]())
        let a = Spy("a")
        a.observe(number) { update, author in
            let name = author === number ? "number" : author === controller ? "controller" : "?"
            authors.withLock { $0.append("\(update.new) by \(name)") }
        }

        number.value = 1
        number.set(42, as: controller)
        number.value = 43
        number.send()

        #expect(authors.value == ["1 by number", "42 by controller", "43 by number", "43 by number"])
        withExtendedLifetime(a) {}
    }

    @Test("queued messages keep their authors")
    func queuedMessagesKeepTheirAuthors() {
        let messenger = Messenger<String>()
        let controller = Controller()
        let log = EventLog()
        let a = Spy("a")
        let b = Spy("b")
        a.observe(messenger) { message, _ in
            if message == "1" {
                messenger.send("2", from: controller)
                messenger.send("3")
            }
        }
        b.observe(messenger) { message, author in
            let name = author === messenger ? "messenger" : author === controller ? "controller" : "?"
            log.append("b:\(message) by \(name)")
        }

        messenger.send("1")

        #expect(log.entries == ["b:1 by messenger", "b:2 by controller", "b:3 by messenger"])
        withExtendedLifetime((a, b)) {}
    }

    @Test("every way to observe can receive the author")
    func everyObservationCanReceiveTheAuthor() {
        withSharedState {
            let messenger = Messenger<String>()
            let controller = Controller()
            let log = EventLog()
            let observer = Spy("observer")
            let token = FreeObserver()
            func record(_ name: String) -> @Sendable (String, AnyObject) -> Void {
                { message, author in log.append("\(name):\(message) by controller: \(author === controller)") }
            }
            observer.observe(messenger, record("observer"))
            observer.observe(messenger.readOnly, record("read-only"))
            token.observe(messenger, record("token"))
            observe(messenger, record("global"))
            messenger.observed(record("observed"))

            messenger.send("1", from: controller)

            #expect(
                log.entries == [
                    "observer:1 by controller: true",
                    "read-only:1 by controller: true",
                    "token:1 by controller: true",
                    "global:1 by controller: true",
                    "observed:1 by controller: true",
                ]
            )
            FreeObserver.shared.stopObserving(messenger)
            withExtendedLifetime((observer, token)) {}
        }
    }

    @Test("SwiftObserver's Collaborator example: each collaborator ignores its own edits")
    func collaboratorsIgnoreTheirOwnEdits() {
        let sharedText = Var<String>()
        let log = EventLog()
        let ann = Collaborator("ann", sharedText: sharedText, log: log)
        let bob = Collaborator("bob", sharedText: sharedText, log: log)
        ann.observeText()
        bob.observeText()

        ann.editText("hello")
        bob.editText("hello, world")
        sharedText.value = "by nobody in particular"

        #expect(
            log.entries == [
                "bob:hello",
                "ann:hello, world",
                "ann:by nobody in particular", "bob:by nobody in particular",
            ]
        )
        #expect(sharedText.value == "by nobody in particular")
    }
}
