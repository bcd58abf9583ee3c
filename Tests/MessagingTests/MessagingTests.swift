import Messaging
import Testing

final class Dog: Observer {
    let receiver = Receiver()
    var heard: [String] = []
}

@Test func basicDeliveryAndReentrancy() {
    let messenger = Messenger<String>()
    let dog = Dog()
    var log: [String] = []
    dog.observe(messenger) { message in
        log.append("a:\(message)")
        if message == "1" { messenger.send("2") }
    }
    dog.observe(messenger) { message in log.append("b:\(message)") }
    messenger.send("1")
    #expect(log == ["a:1", "b:1", "a:2", "b:2"])
    #expect(dog.isObserving(messenger))
    #expect(dog.amISubscribed(messenger))
    #expect(messenger.amISubscribed(dog))
    dog.stopObserving(messenger)
    #expect(!dog.isObserving(messenger))
    #expect(!messenger.amISubscribed(dog))
    messenger.send("3")
    #expect(log.count == 4)
}

@Test func observerDeathEndsObservation() {
    let messenger = Messenger<Int>()
    weak var weakDog: Dog?
    do {
        let dog = Dog()
        weakDog = dog
        dog.observe(messenger) { [weak dog] in dog?.heard.append("\($0)") }
        messenger.send(1)
        #expect(dog.heard == ["1"])
    }
    #expect(weakDog == nil)
    #expect(messenger.observationCount == 0)
    #expect(messenger.observers.isEmpty)
}

@Test func observeOnceDies() {
    let messenger = Messenger<Int>()
    var got: [Int] = []
    weak var free: FreeObserver?
    free = observeOnce(messenger) { got.append($0) }
    #expect(free != nil)
    messenger.send(1)
    messenger.send(2)
    #expect(got == [1])
    #expect(free == nil)
}

@MainActor final class ViewModel: Observer {
    let receiver = Receiver()
    var values: [Int] = []
    func start(_ m: Messenger<Int>) { observe(m) { [weak self] in self?.values.append($0) } }
}

@Test @MainActor func mainActorViewModel() async throws {
    let messenger = Messenger<Int>()
    let vm = ViewModel()
    vm.start(messenger)
    messenger.send(1)
    #expect(vm.values == [1])
    await Task.detached { for i in 2...50 { messenger.send(i) } }.value
    for _ in 0..<100 where vm.values.count < 50 {
        await Task.yield()
        try await Task.sleep(for: .milliseconds(5))
    }
    #expect(vm.values == Array(1...50))
}
