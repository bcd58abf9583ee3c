// Promises used from Swift 6 code: a main-actor view model awaits them, a background task fulfils
// them, an actor awaits a composed chain, a main-actor observer observes one, and `Sendable`
// handlers use `whenFulfilled`. No annotation is needed anywhere.
import Messaging

struct User: Sendable {
    let id: Int
    let name: String
}

final class UserService: Sendable {
    func loadID() -> Promise<Int> {
        Promise { promise in
            Task.detached { promise.fulfill(42) }
        }
    }

    func loadUser(id: Int) -> Promise<User> {
        Promise { promise in
            Task.detached { promise.fulfill(User(id: id, name: "Ada")) }
        }
    }

    func loadAvatar() -> Promise<String?> {
        Promise(fulfilled: nil)
    }
}

@MainActor
final class ProfileViewModel {
    private(set) var title = ""
    private(set) var avatar = ""

    func load(from service: UserService) async {
        // Main-actor state, set right after the await: the getter runs on the caller's actor.
        let user = await promise { service.loadID() }.then { service.loadUser(id: $0) }.value
        title = user.name
        avatar = await service.loadAvatar().unwrap("placeholder").value
    }

    func loadUnlessCancelled(from service: UserService) async {
        do {
            title = try await service.loadUser(id: 1).valueUnlessCancelled.name
        } catch {
            title = "cancelled"
        }
    }
}

actor Cache {
    private var names: [Int: String] = [:]

    func fill(from service: UserService) async {
        let (id, user) = await service.loadID().and { service.loadUser(id: 7) }.value
        names[id] = user.name
    }
}

final class Badge: MainActorObserver {
    let receiver = Receiver()
    private(set) var text = ""

    init(_ pending: Promise<Int>) {
        // An observer of the promise: its handler runs on the main actor.
        observe(pending) { count in self.text = "\(count)" }
    }
}

final class Log: Sendable {
    func record(_ line: String) { print(line) }
}

func logWhenLoaded(_ service: UserService, to log: Log) {
    // A `Sendable` handler on the fulfilling thread; the chain keeps itself alive.
    service.loadID().whenFulfilled { id in
        log.record("id \(id)")
    }.map { "\($0)" }.whenFulfilled { text in
        log.record(text)
    }
}

@MainActor
func run() async {
    let service = UserService()
    let viewModel = ProfileViewModel()
    await viewModel.load(from: service)
    await Cache().fill(from: service)
    let count = Promise<Int>()
    let badge = Badge(count)
    count.fulfill(3)
    logWhenLoaded(service, to: Log())
    print(viewModel.title, badge.text)
}
