/// How a view of each element's property reads a property's value in the step that starts its
/// observation: through `_LatestUnderLock` when the property keeps its value under its messenger's
/// lock (a ``Var``), found once per view from the property's type instead of by a cast per element,
/// which costs thousands of instructions.
struct _PropertyReader<Property: ObservableCache, Value>: Sendable where Property.Message == Update<Value> {
    /// Reads the value under the property's messenger lock; `nil` for a property that does not
    /// keep its value under that lock. Library code only: it copies the value.
    let readUnderLock: (@Sendable (Property) -> Value)?

    init() {
        if let type = Property.self as? any _LatestUnderLock<Update<Value>>.Type {
            readUnderLock = Self._reader(for: type)
        } else {
            readUnderLock = nil
        }
    }

    static func _reader<Locked: _LatestUnderLock<Update<Value>>>(
        for _: Locked.Type
    ) -> @Sendable (Property) -> Value {
        { property in
            // `Locked` is `Property` itself, found by the cast of its metatype in `init`.
            unsafeDowncast(property, to: Locked.self)._latestMessageUnderLock().new
        }
    }
}
