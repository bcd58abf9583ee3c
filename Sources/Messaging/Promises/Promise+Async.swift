extension Promise {
    /// The value, once the promise is fulfilled: `await promise.value`.
    ///
    /// ```swift
    /// @MainActor func showID() async {
    ///     label.text = "\(await getID().value)"
    /// }
    /// ```
    ///
    /// Returns at once, without suspending, if the promise is fulfilled already; otherwise the task
    /// waits until it is. It runs on the caller's actor and needs no `Sendable` caller: a view model
    /// on the main actor awaits it like any async property.
    ///
    /// Like `Task.value`, it waits regardless of cancellation: a cancelled task still gets the
    /// value, when it comes. A task waiting for a promise that is never fulfilled waits forever,
    /// and keeps the promise alive meanwhile. To stop waiting when the task is cancelled, await
    /// ``valueUnlessCancelled`` instead.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    nonisolated(nonsending) public var value: Value {
        get async {
            if case .fulfilled(let value) = _lock.withLock({ _state.reserveWaiterID() }) { return value }
            return await withUnsafeContinuation { continuation in
                if case .runNow(_, let value) = _lock.withLock({ _state.add(.task(continuation)) }) {
                    continuation.resume(returning: value)
                }
            }
        }
    }

    /// The value, once the promise is fulfilled, unless the waiting task is cancelled first.
    ///
    /// ```swift
    /// let loading = Task {
    ///     try await getID().valueUnlessCancelled
    /// }
    /// loading.cancel()  // the task ends at once with CancellationError
    /// ```
    ///
    /// If the promise is fulfilled already, returns its value at once, even in a cancelled task.
    /// Otherwise the task waits; if it is cancelled (before or while waiting), it stops waiting at
    /// once and throws `CancellationError`, and the promise lets go of it: a cancelled wait leaves
    /// nothing behind in the promise.
    ///
    /// - Throws: `CancellationError` if the task is cancelled before the promise is fulfilled.
    /// - Complexity: O(1) amortized; a cancellation costs O(*n*) for *n* waiting handlers and tasks.
    nonisolated(nonsending) public var valueUnlessCancelled: Value {
        get async throws(CancellationError) {
            let id: UInt64
            switch _lock.withLock({ _state.reserveWaiterID() }) {
            case .fulfilled(let value): return value
            case .pending(let reserved): id = reserved
            }
            do {
                return try await withTaskCancellationHandler {
                    try await withUnsafeThrowingContinuation { continuation in
                        // `Task.isCancelled` is read under the lock: a cancellation handler that
                        // starts after the read finds the continuation stored.
                        let action = _lock.withLock {
                            _state.add(.cancellableTask(continuation), id: id, isCancelled: Task.isCancelled)
                        }
                        switch action {
                        case .added: break
                        case .runNow(_, let value): continuation.resume(returning: value)
                        case .cancelled: continuation.resume(throwing: CancellationError())
                        }
                    }
                } onCancel: {
                    let waiter = _lock.withLock { _state.removeWaiter(id: id) }
                    if case .cancellableTask(let continuation) = waiter {
                        continuation.resume(throwing: CancellationError())
                    }
                }
            } catch {
                // The continuation is only ever resumed with a cancellation.
                throw CancellationError()
            }
        }
    }
}
