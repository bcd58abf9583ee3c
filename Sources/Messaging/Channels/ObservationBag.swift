/// A container of observation tokens that ends them all when it is emptied or released.
///
/// ```swift
/// final class FeedViewController {
///     private let observations = ObservationBag()
///
///     func viewDidLoad() {
///         observations += themeManager.themes.subscribe { [weak self] theme in
///             self?.updateTheme(theme)
///         }
///     }
/// }
/// ```
///
/// When the view controller is released, the bag is too, and the observation ends. This is Rasat's
/// `DisposeBag`, and Combine's `Set<AnyCancellable>`. Thread-safe.
///
/// In a main-actor view model or an actor, keep tokens whose handlers use its state:
///
/// ```swift
/// @MainActor final class FeedViewModel {
///     private(set) var theme = Theme.light
///     private let observations = ObservationBag()
///
///     init(themeManager: ThemeManager) {
///         observations += themeManager.themes.subscribeIsolated { [weak self] theme in
///             self?.theme = theme       // main-actor state, no `await`
///         }
///     }
/// }
/// ```
public final class ObservationBag: @unchecked Sendable {  // `_tokens` is guarded by `_lock`
    private let _lock = _Lock()
    /// The lock makes every access exclusive, so the run-time exclusivity check is left out.
    @exclusivity(unchecked) private var _tokens: [any _Token] = []

    /// Creates an empty bag.
    public init() {}

    deinit {
        for token in _tokens { token.stopObserving() }
    }

    /// The number of tokens in the bag.
    public var count: Int { _lock.withLock { _tokens.count } }

    /// Adds a token; its observation now ends with the bag.
    ///
    /// - Parameter token: The token to keep.
    /// - Complexity: O(1) amortized.
    public func insert(_ token: ObservationToken) {
        _lock.withLock { _tokens.append(token) }
    }

    /// Adds a free observer; its observations now end with the bag.
    ///
    /// - Parameter token: The free observer to keep.
    /// - Complexity: O(1) amortized.
    public func insert(_ token: FreeObserver) {
        _lock.withLock { _tokens.append(token) }
    }

    /// Adds a token to a bag: `bag += messenger.subscribe { ... }`.
    ///
    /// - Parameters:
    ///   - bag: The bag.
    ///   - token: The token to keep.
    public static func += (bag: ObservationBag, token: ObservationToken) {
        bag.insert(token)
    }

    /// Adds a free observer to a bag: `bag += observable.observedOnce { ... }`.
    ///
    /// - Parameters:
    ///   - bag: The bag.
    ///   - token: The free observer to keep.
    public static func += (bag: ObservationBag, token: FreeObserver) {
        bag.insert(token)
    }

    /// Ends every observation of every token in the bag, and empties it.
    ///
    /// - Complexity: O(*n*) for *n* observations.
    public func removeAll() {
        let tokens = _lock.withLock { () -> [any _Token] in
            var taken: [any _Token] = []
            swap(&taken, &_tokens)
            return taken
        }
        for token in tokens { token.stopObserving() }
    }
}

extension FreeObserver {
    /// Puts this free observer into `bag`, so its observations end with the bag.
    ///
    /// - Parameter bag: The bag to keep the free observer in.
    public func store(in bag: ObservationBag) {
        bag.insert(self)
    }
}

extension ObservationToken {
    /// Puts this token into `bag`, so its observation ends with the bag.
    ///
    /// - Parameter bag: The bag to keep the token in.
    public func store(in bag: ObservationBag) {
        bag.insert(self)
    }
}

/// What a bag holds: anything whose observations end on `stopObserving()`.
protocol _Token: AnyObject, Sendable {
    func stopObserving()
}

extension ObservationToken: _Token {}
extension FreeObserver: _Token {}
