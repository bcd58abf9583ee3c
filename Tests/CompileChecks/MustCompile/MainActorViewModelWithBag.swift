// Combine's habit in a main-actor view model (`model.$title.sink { [weak self] ... }
// .store(in: &cancellables)`), without making the class an observer: tokens in a bag, a free
// observer and the global functions, each with a handler that uses main-actor state directly.
import Messaging

final class Document: Sendable {
    let title = Var("")
    let wordCount = Var(0)
    let saved = Messenger<String>()
}

@MainActor
final class DocumentViewModel {
    private(set) var title = ""
    private(set) var words = ""
    private(set) var lastSave = ""
    private(set) var saves = 0
    private let bag = ObservationBag()
    private let observations = FreeObserver()

    init(document: Document) {
        // Main-actor state, no `await`, no hop: the handlers run on the main actor.
        bag += document.title.subscribeIsolated { [weak self] update in
            self?.title = update.new
        }
        document.wordCount.subscribeIsolated(replayingLatest: true) { [weak self] update in
            self?.words = "\(update.new) words"
        }.store(in: bag)
        observations.observeIsolated(document.saved) { [weak self] path in
            self?.lastSave = path
        }
        observations.observeIsolated(document.saved) { [weak self] _, author in
            if author !== self { self?.saves += 1 }
        }
        bag += observations
    }

    /// Handlers isolated to the main actor may share main-actor state, a local variable included.
    func countSaves(of document: Document) -> ObservationToken {
        var count = 0
        let token = document.saved.subscribeIsolated { _ in count += 1 }
        observeIsolated(document.saved) { _ in count += 1 }
        count = 0
        return token
    }

    func waitForTheFirstSave(of document: Document) {
        observeOnceIsolated(document.saved) { [weak self] path in
            self?.lastSave = "first: \(path)"
        }
    }
}

@MainActor
func editDocument() async {
    let document = Document()
    let viewModel = DocumentViewModel(document: document)
    document.title.value = "Draft"  // on the main actor: the view model sees it before this returns
    await Task.detached {
        document.wordCount.value = 120  // elsewhere: the view model sees it soon after, on the main actor
        document.saved.send("/tmp/draft.txt")
    }.value
    await waitForPendingDeliveries()
    print(viewModel.title, viewModel.words, viewModel.lastSave, viewModel.saves)
}
