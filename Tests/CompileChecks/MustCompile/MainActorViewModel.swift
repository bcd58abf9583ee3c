// A `@MainActor` view model observing a `Sendable` model that a background task changes.
import Messaging

final class Profile: Sendable {
    let name = Var("")
    let unread = Var(0)
}

final class ProfileViewModel: MainActorObserver {
    let receiver = Receiver()
    private(set) var title = ""
    private(set) var badge = ""

    init(profile: Profile) {
        // Main-actor state, used directly: the handlers run on the main actor.
        observe(profile.name) { update in
            self.title = update.new
        }
        observeWeakly(profile.unread) { viewModel, update in
            viewModel.badge = update.new == 0 ? "" : "\(update.new)"
        }
        observe(profile.name) { update, author in
            if author !== self { self.title += " (edited elsewhere)" }
        }
    }

    func rename(_ profile: Profile, to name: String) {
        profile.name.set(name, as: self)
    }
}

@MainActor
func showProfile() async {
    let profile = Profile()
    let viewModel = ProfileViewModel(profile: profile)
    await Task.detached {
        profile.name.value = "Ada"
        profile.unread.value = 1
    }.value
    await waitForPendingDeliveries()
    viewModel.rename(profile, to: "Ada L.")
    print(viewModel.title, viewModel.badge)
}
