/// A value that will be there later: an observable that sends one message, its value, once.
///
/// ```swift
/// func getID() -> Promise<Int> {   // getID() promises an Int
///     Promise { promise in         // convenience initializer
///         getIDAsync { id in       // handler retains the promise until it's fulfilled
///             promise.fulfill(id)  // sends the id to the promise's observers
///         }
///     }
/// }
///
/// getID().whenFulfilled { id in    // get id (if fulfilled) or wait for it
///     // do something with the ID
/// }
/// ```
///
/// A promise may be fulfilled already when you get it, so rather than observing it, call
/// ``whenFulfilled(_:)``: its handler gets the value at once if it is there, and otherwise when
/// the promise is fulfilled. In async code, `await` ``value``. Promises compose: ``then(_:)``,
/// ``and(_:)``, ``map(_:)``, ``unwrap(_:)`` and ``new()`` each return a new promise, and the
/// free function ``promise(_:)`` opens a chain.
///
/// ## Lifetime
/// Nobody needs to keep a promise. Whatever will fulfil it keeps it alive: above, the completion
/// handler of `getIDAsync` holds it, and the promise holds the handlers waiting for its value. Once
/// it is fulfilled, it lets go of them; when the work lets go of the promise, everything is freed.
/// A promise that is never fulfilled holds its handlers until whatever owns it (its work included)
/// lets go of it, and then frees them without calling them.
///
/// ## Threads
/// A promise is `Sendable`: any thread may fulfil it, add handlers and await its value at the
/// same time. It is fulfilled exactly once, and each handler is called exactly once. Handlers are
/// `@Sendable` and run on the thread that fulfils the promise, before ``fulfill(_:isolation:)``
/// returns, or at once on the thread that adds them if the promise is fulfilled already. Code on an
/// actor (a `@MainActor` view model, say) awaits ``value`` instead.
///
/// ## Observing
/// A promise is an ``ObservableSource`` whose message is its value: observers that observe it
/// before it is fulfilled receive the value once, after its ``whenFulfilled(_:)`` handlers, as a
/// message whose author is the promise. Nothing is replayed: observing a fulfilled promise
/// receives nothing. The messenger is made when first asked for, so a promise nobody observes costs
/// no messenger. Fulfil a promise with ``fulfill(_:isolation:)``: a message sent with
/// ``ObservableSource/send(_:isolation:)`` reaches its observers but fulfils nothing.
///
/// This is SwiftObserver's `Promise`.
public final class Promise<Value: Sendable>: ObservableSource, @unchecked Sendable {
    // `_state` and `_messenger` are only touched while holding `_lock`, which makes their run-time
    // exclusivity checks redundant.

    @usableFromInline let _lock = _Lock()
    @exclusivity(unchecked) @usableFromInline var _state = _PromiseState<Value, _PromiseWaiter<Value>>()
    @exclusivity(unchecked) @usableFromInline var _messenger: Messenger<Value>?

    /// Creates a promise that is not fulfilled yet; fulfil it with ``fulfill(_:isolation:)``.
    @inlinable
    public init() {}

    /// Creates a promise and hands it to `work`, which starts what will fulfil it.
    ///
    /// ```swift
    /// Promise { promise in
    ///     download(url) { data in promise.fulfill(data) }
    /// }
    /// ```
    ///
    /// `work` runs at once, before the initializer returns. Whatever it hands the promise to (a
    /// completion handler, a task) keeps the promise alive until it is fulfilled.
    ///
    /// - Parameter work: Starts the work that will fulfil the promise.
    public convenience init(_ work: (Promise<Value>) -> Void) {
        self.init()
        work(self)
    }

    /// Creates a promise that is fulfilled with `value` already.
    ///
    /// - Parameter value: The value.
    @inlinable
    public init(fulfilled value: Value) {
        _ = _state.fulfill(value)
    }

    deinit {
        // Unfulfilled: its waiters hold the promises composed from it. Release them without nesting.
        if _state.waiterCount > 0 { _PromiseBurial.bury(_state.abandon()) }
    }

    /// The messenger through which the promise sends its value to its observers.
    ///
    /// Made when first asked for. Fulfil the promise with ``fulfill(_:isolation:)``: a message sent
    /// with ``ObservableSource/send(_:isolation:)`` or through the messenger reaches the observers
    /// but fulfils nothing.
    ///
    /// - Complexity: O(1).
    public var messenger: Messenger<Value> {
        // Two allocations, no user code: making the messenger under the lock is safe.
        _lock.withLock {
            if let messenger = _messenger { return messenger }
            let messenger = Messenger<Value>()
            _messenger = messenger
            return messenger
        }
    }

    /// Fulfils the promise: hands `value` to every handler, waiting task and observer, once.
    ///
    /// The ``whenFulfilled(_:)`` handlers run first, in the order they were added, on this thread,
    /// and tasks awaiting ``value`` resume; then observers of the promise receive the value as a
    /// message (see ``ObservableSource/send(_:isolation:)``); then the promises composed from this
    /// one are fulfilled in turn. All of this happens before `fulfill` returns, except what runs on
    /// an actor other than the caller's.
    ///
    /// A promise is fulfilled once. Fulfilling it again changes nothing: the value is ignored, no
    /// handler is called, and the call returns `false`.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - isolation: The caller's actor, filled in automatically: observers isolated to it
    ///     receive the value before `fulfill` returns.
    /// - Returns: `true` if this call fulfilled the promise, `false` if it was fulfilled already.
    /// - Complexity: O(*n*) for *n* handlers, waiting tasks and observers, plus the fulfilment of
    ///   the promises composed from it.
    @inlinable @discardableResult
    public func fulfill(_ value: Value, isolation: isolated (any Actor)? = #isolation) -> Bool {
        let (action, messenger) = _lock.withLock { (_state.fulfill(value), _messenger) }
        guard case .deliver(let waiters) = action else { return false }
        let work = Self._deliver(value, to: waiters)
        messenger?.send(value, from: self)
        work.run()
        return true
    }

    /// Calls `handler` with the value: at once if the promise is fulfilled, otherwise when it is.
    ///
    /// ```swift
    /// let idPromise = getID()
    ///
    /// idPromise.whenFulfilled { id in
    ///     // do something with id
    /// }
    ///
    /// idPromise.whenFulfilled { id in
    ///     // do something else with id
    /// }
    /// ```
    ///
    /// Every handler is called exactly once. The promise holds a handler until it calls it: a
    /// handler that captures the promise keeps it alive until it is fulfilled, and no longer.
    ///
    /// - Parameter handler: Called with the value on the thread that fulfils the promise, or, if it
    ///   is fulfilled already, on this thread before `whenFulfilled` returns.
    /// - Returns: This promise, so that a chain can go on (``map(_:)``, say).
    /// - Complexity: O(1) amortized.
    @inlinable @discardableResult
    public func whenFulfilled(_ handler: @escaping @Sendable (Value) -> Void) -> Promise<Value> {
        if case .runNow(_, let value) = _lock.withLock({ _state.add(.handler(handler)) }) {
            handler(value)
        }
        return self
    }
}

extension Promise {
    /// Adds `link`, to be called with the value: now if the promise is fulfilled (the link then
    /// returns its deliveries), otherwise at the fulfilment.
    ///
    /// - Returns: The work that calling the link now left to do; empty if it was stored.
    func _whenFulfilled(link: @escaping @Sendable (Value) -> _PromiseWork) -> _PromiseWork {
        guard case .runNow(_, let value) = _lock.withLock({ _state.add(.link(link)) }) else { return _PromiseWork() }
        return link(value)
    }

    /// Fulfils the promise, for a link: the deliveries are returned as work, not made.
    ///
    /// A promise made by composition may also be fulfilled directly; whichever comes first wins.
    func _fulfillLater(_ value: Value) -> _PromiseWork {
        let (action, messenger) = _lock.withLock { (_state.fulfill(value), _messenger) }
        guard case .deliver(let waiters) = action else { return _PromiseWork() }
        return _PromiseWork {
            let work = Self._deliver(value, to: waiters)
            messenger?.send(value, from: self)
            return work
        }
    }

    /// Hands `value` to `waiters` in order, and returns what their links left to do.
    @inlinable
    static func _deliver(_ value: Value, to waiters: [_PromiseWaiter<Value>]) -> _PromiseWork {
        var work = _PromiseWork()
        for waiter in waiters {
            switch waiter {
            case .handler(let handler):
                handler(value)
            case .link(let link):
                work.append(link(value))
            case .task(let continuation):
                continuation.resume(returning: value)
            case .cancellableTask(let continuation):
                continuation.resume(returning: value)
            }
        }
        return work
    }

    /// The number of handlers, links and tasks waiting, for tests.
    var _waiterCount: Int { _lock.withLock { _state.waiterCount } }

    /// Whether the promise is fulfilled, for tests.
    var _isFulfilled: Bool { _lock.withLock { _state.isFulfilled } }
}
