extension ObservableDictionary {
    /// The value of `key`, or `nil` if the dictionary has none; setting a value inserts or updates
    /// the entry, setting `nil` removes it, and each sends its change (nothing if nothing changes).
    ///
    /// ```swift
    /// scores["bob"] = 5    // an insertion, or an update if "bob" had another value
    /// scores["bob"] = nil  // a removal
    /// ```
    ///
    /// A setter cannot know its caller's actor: handlers isolated to it run soon after, in order,
    /// rather than before the setter returns; ``updateValue(_:forKey:isolation:)`` and
    /// ``removeValue(forKey:isolation:)`` know it.
    ///
    /// - Parameter key: The key to look up. It is hashed after the lock is released, against the
    ///   entries as they were when the lock was held.
    /// - Complexity: Reading is O(1) on average. Setting is as ``updateValue(_:forKey:isolation:)``.
    public subscript(key: Key) -> Value? {
        get { value[key] }
        set {
            if let newValue {
                _updateValue(newValue, forKey: key, isolation: nil)
            } else {
                _removeValue(forKey: key, isolation: nil)
            }
        }
    }

    /// Puts `value` under `key` and sends the insertion, or the update of the old value; nothing if
    /// the key already has a value equal to `value`.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - key: Its key.
    ///   - isolation: The caller's actor, filled in automatically; handlers isolated to it run
    ///     before `updateValue` returns.
    /// - Returns: The value `key` had, or `nil` if it had none, as `Dictionary` returns.
    /// - Complexity: O(1) on average, plus O(*n*) for *n* observers; see ``ObservableDictionary``
    ///   for when an edit also copies the entries.
    @discardableResult
    public func updateValue(_ value: Value, forKey key: Key, isolation: isolated (any Actor)? = #isolation) -> Value? {
        _updateValue(value, forKey: key, isolation: isolation)
    }

    /// Removes the entry of `key` and sends its removal; nothing if there is none.
    ///
    /// - Parameters:
    ///   - key: The key to remove.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Returns: The value `key` had, or `nil` if it had none.
    /// - Complexity: O(1) on average, plus O(*n*) for *n* observers; see ``ObservableDictionary``
    ///   for when an edit also copies the entries.
    @discardableResult
    public func removeValue(forKey key: Key, isolation: isolated (any Actor)? = #isolation) -> Value? {
        _removeValue(forKey: key, isolation: isolation)
    }

    /// Removes every entry and sends one removal of all of them; nothing if the dictionary is
    /// empty.
    ///
    /// - Parameter isolation: The caller's actor, filled in automatically.
    /// - Complexity: O(1), plus O(*n*) for *n* observers. The entries are released with the last
    ///   copy of the change, after its delivery.
    public func removeAll(isolation: isolated (any Actor)? = #isolation) {
        // The spare would remove the entries one by one; the next edit copies no entry.
        _edit(isolation: isolation, keepsSpare: false) { entries in
            let removed = entries
            entries = [:]
            return (DictionaryChange(removed: removed), ())
        }
    }

    /// Puts every entry of `other` in the dictionary, as `merge(_:uniquingKeysWith: { $1 })` does,
    /// and sends one change with the insertions and the updates; nothing if every key already has
    /// the same value. A key whose value is equal (`==`) to the new one keeps the value it has.
    ///
    /// - Parameters:
    ///   - other: The entries to put. Read before the dictionary is locked.
    ///   - isolation: The caller's actor, filled in automatically.
    /// - Complexity: O(*m*) on average for *m* entries, plus O(*n*) for *n* observers.
    public func merge(_ other: [Key: Value], isolation: isolated (any Actor)? = #isolation) {
        _edit(isolation: isolation) { entries in
            var inserted: [Key: Value] = [:]
            var updated: [Key: Update<Value>] = [:]
            for (key, value) in other {
                if let oldValue = entries[key] {
                    if oldValue != value { updated[key] = Update(oldValue, value) }
                } else {
                    inserted[key] = value
                }
            }
            let change = DictionaryChange(inserted: inserted, updated: updated)
            change.apply(to: &entries)
            return (change, ())
        }
    }

    @discardableResult
    func _updateValue(_ value: Value, forKey key: Key, isolation: (any Actor)?) -> Value? {
        _edit(isolation: isolation) { entries in
            let oldValue = entries[key]
            if oldValue == value { return (DictionaryChange(), oldValue) }
            let change = DictionaryChange(updatingValue: value, forKey: key, in: entries)
            entries[key] = value
            return (change, oldValue)
        }
    }

    @discardableResult
    func _removeValue(forKey key: Key, isolation: (any Actor)?) -> Value? {
        _edit(isolation: isolation) { entries in
            guard let index = entries.index(forKey: key) else { return (DictionaryChange(), nil) }
            let (removedKey, oldValue) = entries.remove(at: index)
            return (DictionaryChange(removed: [removedKey: oldValue]), oldValue)
        }
    }
}
