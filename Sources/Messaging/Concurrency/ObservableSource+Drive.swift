extension ObservableSource {
    /// Sends every element of an async sequence, in order, as it arrives; returns when the sequence
    /// ends or the task is cancelled.
    ///
    /// ```swift
    /// // In a task of its own, so that it runs beside the rest:
    /// let feed = Task { await ticker.send(contentsOf: prices) }
    /// // ... later: stop forwarding
    /// feed.cancel()
    /// ```
    ///
    /// It is an `async` function rather than one that starts a task, so the caller chooses where
    /// it runs and how long: awaited in place, in `Task { }`, in a task group, or in a view's
    /// `.task { }`, whose cancellation stops it. Each element is sent like
    /// ``send(_:isolation:)``, with this observable as its author, from the caller's actor.
    ///
    /// Cancellation: once the task is cancelled, an element that arrives is not sent, and the
    /// function returns (a sequence that ends on cancellation, like ``ObservableMessages``, ends
    /// it at once). If the sequence throws, the elements before the error have been sent and the
    /// error is rethrown.
    ///
    /// - Parameters:
    ///   - sequence: The messages to send.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Throws: What the sequence throws.
    /// - Complexity: O(*n*) per element for *n* observations.
    public func send<Messages: AsyncSequence>(
        contentsOf sequence: Messages,
        isolation: isolated (any Actor)? = #isolation
    ) async rethrows where Messages.Element == Message {
        for try await message in sequence {
            if Task.isCancelled { return }
            let messenger = messenger
            messenger._core.send(message, author: self, checksChange: false, isolation: isolation, standIn: messenger)
        }
    }
}

extension Var {
    /// Sets the variable to every element of an async sequence, in order, as it arrives; returns
    /// when the sequence ends or the task is cancelled.
    ///
    /// ```swift
    /// let sync = Task { await temperature.assign(contentsOf: sensor.readings) }
    /// ```
    ///
    /// Each element is set like ``value``: an element equal to the current value sends nothing.
    /// The updates are authored by the variable and sent from the caller's actor. Like
    /// ``ObservableSource/send(contentsOf:isolation:)``, it is an `async` function: the caller
    /// chooses the task, and cancelling it stops the assignments (an element that arrives after
    /// the cancellation is not assigned). If the sequence throws, the elements before the error
    /// have been assigned and the error is rethrown.
    ///
    /// - Parameters:
    ///   - sequence: The values to assign.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Throws: What the sequence throws.
    /// - Complexity: O(*n*) per changed element for *n* observers.
    public func assign<Values: AsyncSequence>(
        contentsOf sequence: Values,
        isolation: isolated (any Actor)? = #isolation
    ) async rethrows where Values.Element == Value {
        for try await value in sequence {
            if Task.isCancelled { return }
            _set(value, author: self, isolation: isolation)
        }
    }
}
