// The code examples of the Promise section of the SwiftObserver README, compiled as written and
// checked against what the text says they do. `print` becomes an entry in a log; the asynchronous
// functions are those of `ExampleAPI`, completed by the test.

import Messaging
import Testing

@Suite("SwiftObserver's Promise examples")
struct PromiseExamplesTests {
    @Test("getID().whenFulfilled: nobody keeps the promise, yet the handler gets the id")
    func receivingThePromisedValueOnce() {
        let api = ExampleAPI()
        let log = EventLog()
        weak var weakPromise: Promise<Int>?
        do {
            weakPromise = api.getID().whenFulfilled { id in  // get id (if fulfilled) or observe promise
                // do something with the ID
                log.append("id:\(id)")
            }
        }
        // The pending work keeps the promise alive.
        #expect(weakPromise != nil)
        #expect(log.entries == [])

        api.work.completeAll()

        #expect(log.entries == ["id:42"])
        // Fulfilled and let go of by its work, the promise is cleaned up.
        #expect(weakPromise == nil)
    }

    @Test("idPromise.whenFulfilled twice: both handlers get the id, also when added after the fulfilment")
    func receivingItAgain() {
        let api = ExampleAPI()
        let log = EventLog()
        let idPromise = api.getID()  // Promise<Int>

        idPromise.whenFulfilled { id in
            // do somethin with id
            log.append("first:\(id)")
        }

        idPromise.whenFulfilled { id in
            // do somethin else with id
            log.append("second:\(id)")
        }

        api.work.completeAll()
        #expect(log.take() == ["first:42", "second:42"])

        // "(long) after receiving the result": the value is delivered at once.
        idPromise.whenFulfilled { id in log.append("later:\(id)") }
        #expect(log.take() == ["later:42"])
    }

    @Test("promise { getInt() }.then { getString(takeInt: $0) }: the String made from the Int")
    func sequentialComposition() {
        let api = ExampleAPI()
        let log = EventLog()

        promise {  // establish context and increase readability
            api.getInt()  // return a Promise<Int>
        }.then {  // chain another promise sequentially
            api.getString(takeInt: $0)  // take Int sent by 'promise', return a Promise<String>
        }.whenFulfilled {  // observation dies when promise 'then' is fulfilled
            log.append($0)  // print String sent by promise 'then'
        }

        // Sequential: getString(takeInt:) starts only once getInt() has delivered.
        #expect(api.work.count == 1)
        api.work.completeAll()
        #expect(api.work.count == 1)
        #expect(log.entries == [])
        api.work.completeAll()
        #expect(log.entries == ["string 7"])
    }

    @Test("promise { getInt() }.and { getString() }: both values, both promises under way at once")
    func concurrentComposition() {
        let api = ExampleAPI()
        let log = EventLog()

        promise {
            api.getInt()
        }.and {  // chain another promise concurrently
            api.getString()
        }.whenFulfilled {
            log.append("\($0.0)")  // print Int sent by 'promise'
            log.append($0.1)  // print String sent by promise 'getString()'
        }

        #expect(api.work.count == 2)
        api.work.completeAll()
        #expect(log.entries == ["7", "a string"])
    }

    @Test("promise { getInt() }.whenFulfilled { }.map { }: the chain goes on after whenFulfilled")
    func valueMapping() {
        let api = ExampleAPI()
        let log = EventLog()

        promise {
            api.getInt()
        }.whenFulfilled {  // returns 'promise' so the chain can continue
            log.append("int:\($0)")  // print Int sent by 'promise'
        }.map {  // chain a mapping promise sequentially
            "\($0)"  // map Int sent by 'promise' to String
        }.whenFulfilled {
            log.append("string:\($0)")  // print String sent by promise 'map'
        }

        api.work.completeAll()
        #expect(log.entries == ["int:7", "string:7"])
    }

    @Test("a promise is an observable: an observer that observes it receives the value as a message")
    func aPromiseIsAnObservable() {
        let api = ExampleAPI()
        let log = EventLog()
        let observer = FreeObserver()
        let idPromise = api.getID()
        observer.observe(idPromise) { id, author in
            log.append("message:\(id):\(author === idPromise)")
        }
        idPromise.whenFulfilled { log.append("handler:\($0)") }

        api.work.completeAll()

        // Handlers first, then observers; the author is the promise.
        #expect(log.take() == ["handler:42", "message:42:true"])
        // Nothing is replayed to an observation that starts after the fulfilment.
        observer.observe(idPromise) { log.append("late:\($0)") }
        #expect(log.entries == [])
        #expect(observer.isObserving(idPromise))
    }
}
