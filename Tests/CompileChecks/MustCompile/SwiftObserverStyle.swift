// SwiftObserver's `observe(sky) { self.bark() }`, inside a main-actor observer and inside a
// Sendable one.
import Messaging

final class Sky: ObservableSource, Sendable {
    let messenger = Messenger<String>()
}

final class Dog: MainActorObserver {
    let receiver = Receiver()
    private(set) var barks = 0

    init(sky: Sky) {
        observe(sky) { _ in self.bark() }
    }

    func bark() { barks += 1 }
}

final class Cat: Observer, Sendable {
    let receiver = Receiver()

    init(sky: Sky) {
        observe(sky) { color in self.meow(at: color) }
    }

    func meow(at color: String) { print("meow at \(color)") }
}

@MainActor
func watchTheSky() {
    let sky = Sky()
    let dog = Dog(sky: sky)
    let cat = Cat(sky: sky)
    sky.send("blue")
    print(dog.barks)
    withExtendedLifetime(cat) {}
}
