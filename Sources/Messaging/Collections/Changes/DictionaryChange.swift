/// Exactly what changed in a dictionary, against its entries before the change: the entries
/// removed, the entries inserted, and the values updated from old to new.
///
/// ```swift
/// let old = ["a": 1, "b": 2]
/// let change = DictionaryChange(from: old, to: ["b": 3, "c": 4])
/// // removed ["a": 1], inserted ["c": 4], updated ["b": 2 -> 3]
/// change.applied(to: old)  // ["b": 3, "c": 4]
/// ```
///
/// A key is in at most one of ``removed``, ``inserted`` and ``updated``. Values are not compared:
/// an update may put a value equal to the old one, and is still a change.
///
/// Rules of a valid change, for the dictionary it applies to: every removed or updated key is in
/// it, and no inserted key is.
///
/// A change is a value: it holds its entries, no reference to the dictionary, no lock.
public struct DictionaryChange<Key: Hashable, Value> {
    @usableFromInline var _removed: [Key: Value]
    @usableFromInline var _inserted: [Key: Value]
    @usableFromInline var _updated: [Key: Update<Value>]

    /// The entries the change removes, with their values before the change.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var removed: [Key: Value] { _removed }

    /// The entries the change inserts, with their new values.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var inserted: [Key: Value] { _inserted }

    /// The keys whose value the change replaces, with their old and new values.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var updated: [Key: Update<Value>] { _updated }

    /// Makes the change that removes, inserts and updates the given entries.
    ///
    /// - Parameters:
    ///   - removed: The entries removed, with their old values.
    ///   - inserted: The entries inserted, with their new values.
    ///   - updated: The keys updated, with their old and new values. A key may be in only one of
    ///     the three, or the program stops with a message.
    /// - Complexity: O(*k*) on average, where *k* is the number of entries.
    @inlinable
    public init(removed: [Key: Value] = [:], inserted: [Key: Value] = [:], updated: [Key: Update<Value>] = [:]) {
        for key in inserted.keys {
            precondition(removed[key] == nil, "DictionaryChange: the key \(key) is both removed and inserted")
            precondition(updated[key] == nil, "DictionaryChange: the key \(key) is both inserted and updated")
        }
        for key in updated.keys {
            precondition(removed[key] == nil, "DictionaryChange: the key \(key) is both removed and updated")
        }
        _removed = removed
        _inserted = inserted
        _updated = updated
    }

    /// The change of `contents[key] = value` or `contents.updateValue(value, forKey: key)`: an
    /// update if `contents` has the key, else an insertion.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - key: Its key.
    ///   - contents: The dictionary before the edit.
    /// - Complexity: O(1) on average.
    @inlinable
    public init(updatingValue value: Value, forKey key: Key, in contents: [Key: Value]) {
        if let old = contents[key] {
            self.init(updated: [key: Update(old, value)])
        } else {
            self.init(inserted: [key: value])
        }
    }

    /// The change of `contents.removeValue(forKey: key)`: a removal, or nothing if `contents` does
    /// not have the key.
    ///
    /// - Parameters:
    ///   - key: The key to remove.
    ///   - contents: The dictionary before the edit.
    /// - Complexity: O(1) on average.
    @inlinable
    public init(removingValueForKey key: Key, from contents: [Key: Value]) {
        if let old = contents[key] {
            self.init(removed: [key: old])
        } else {
            self.init()
        }
    }

    /// The change from `old` to `new`: the keys only in `old` are removed, the keys only in `new`
    /// inserted, and the keys in both whose values differ updated.
    ///
    /// - Parameters:
    ///   - old: The entries before the change.
    ///   - new: The entries after it.
    /// - Complexity: O(*n* + *m*) on average, where *n* and *m* are the counts of `old` and `new`.
    @inlinable
    public init(from old: [Key: Value], to new: [Key: Value]) where Value: Equatable {
        var removed: [Key: Value] = [:]
        var updated: [Key: Update<Value>] = [:]
        for (key, oldValue) in old {
            if let newValue = new[key] {
                if newValue != oldValue { updated[key] = Update(oldValue, newValue) }
            } else {
                removed[key] = oldValue
            }
        }
        var inserted: [Key: Value] = [:]
        for (key, newValue) in new where old[key] == nil {
            inserted[key] = newValue
        }
        _removed = removed
        _inserted = inserted
        _updated = updated
    }

    /// Whether the change changes nothing: it removes, inserts and updates no entry.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && updated.isEmpty }

    /// Turns `dictionary`, which must hold the entries before the change, into the entries after it.
    ///
    /// - Parameter dictionary: The dictionary to change. Every removed or updated key must be in
    ///   it and no inserted key, or the program stops with a message.
    /// - Complexity: O(*k*) on average, where *k* is the number of entries of the change.
    @inlinable
    public func apply(to dictionary: inout [Key: Value]) {
        // The edits stay out of the preconditions, which `-Ounchecked` does not evaluate.
        for key in _removed.keys {
            let wasPresent = dictionary.removeValue(forKey: key) != nil
            precondition(wasPresent, "DictionaryChange.apply(to:): the removed key \(key) is not in the dictionary")
        }
        for (key, update) in _updated {
            let wasPresent = dictionary.updateValue(update.new, forKey: key) != nil
            precondition(wasPresent, "DictionaryChange.apply(to:): the updated key \(key) is not in the dictionary")
        }
        for (key, value) in _inserted {
            let wasAbsent = dictionary.updateValue(value, forKey: key) == nil
            precondition(wasAbsent, "DictionaryChange.apply(to:): the inserted key \(key) is already in the dictionary")
        }
    }

    /// The entries after the change, made from `dictionary`, the entries before it.
    ///
    /// - Parameter dictionary: The entries before the change, as ``apply(to:)`` requires them.
    /// - Returns: The entries after the change.
    /// - Complexity: O(*k*) on average, plus copying `dictionary`.
    @inlinable
    public func applied(to dictionary: [Key: Value]) -> [Key: Value] {
        var result = dictionary
        apply(to: &result)
        return result
    }

    /// The change from the entries after this change back to the entries before it: removals and
    /// insertions trade places, and each update goes from its new value to its old one.
    ///
    /// - Returns: The reverse change.
    /// - Complexity: O(*u*), where *u* is the number of updated keys.
    @inlinable
    public func reversed() -> DictionaryChange {
        DictionaryChange(
            _removed: inserted, inserted: removed, updated: updated.mapValues { Update($0.new, $0.old) })
    }

    /// One change equivalent to applying this change, then `next`.
    ///
    /// Per key: an insertion that `next` removes cancels out; an insertion that `next` updates is an
    /// insertion of the new value; a removal that `next` inserts again is an update from the old
    /// value to the new one; an update that `next` updates again is one update from the first old
    /// value to the last new one; an update that `next` removes is a removal of the first old value.
    ///
    /// ```swift
    /// let first = DictionaryChange(inserted: ["x": 1])
    /// first.merged(with: DictionaryChange(removed: ["x": 1])).isEmpty  // true
    /// ```
    ///
    /// - Parameter next: The change that follows this one. It must not remove or update a key this
    ///   change removed, nor insert a key this change inserted or updated, or the program stops
    ///   with a message.
    /// - Returns: The change from the entries before this change to the entries after `next`.
    /// - Complexity: O(*a* + *b*) on average, where *a* and *b* are the sizes of the two changes.
    @inlinable
    public func merged(with next: DictionaryChange) -> DictionaryChange {
        var result = self
        result.merge(with: next)
        return result
    }

    /// Makes this change the one equivalent to applying it, then `next`: see ``merged(with:)``.
    ///
    /// - Parameter next: The change that follows this one, as ``merged(with:)`` requires it.
    /// - Complexity: O(*a* + *b*) on average, where *a* and *b* are the sizes of the two changes.
    @inlinable
    public mutating func merge(with next: DictionaryChange) {
        for (key, value) in next.removed {
            precondition(
                _removed[key] == nil,
                "DictionaryChange.merge(with:): the next change removes \(key), which this change removed")
            if _inserted.removeValue(forKey: key) != nil {
                continue
            } else if let update = _updated.removeValue(forKey: key) {
                _removed[key] = update.old
            } else {
                _removed[key] = value
            }
        }
        for (key, update) in next.updated {
            precondition(
                _removed[key] == nil,
                "DictionaryChange.merge(with:): the next change updates \(key), which this change removed")
            if _inserted[key] != nil {
                _inserted[key] = update.new
            } else if let first = _updated[key] {
                _updated[key] = Update(first.old, update.new)
            } else {
                _updated[key] = update
            }
        }
        for (key, value) in next.inserted {
            precondition(
                _inserted[key] == nil && _updated[key] == nil,
                "DictionaryChange.merge(with:): the next change inserts \(key), which this change left in the dictionary"
            )
            if let old = _removed.removeValue(forKey: key) {
                _updated[key] = Update(old, value)
            } else {
                _inserted[key] = value
            }
        }
    }

    /// Makes a change from lists known to have no key in common.
    @inlinable
    init(_removed removed: [Key: Value], inserted: [Key: Value], updated: [Key: Update<Value>]) {
        _removed = removed
        _inserted = inserted
        _updated = updated
    }
}

extension DictionaryChange: Equatable where Value: Equatable {}
extension DictionaryChange: Hashable where Value: Hashable {}
extension DictionaryChange: Sendable where Key: Sendable, Value: Sendable {}
