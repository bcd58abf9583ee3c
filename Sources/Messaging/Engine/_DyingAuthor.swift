import _MessagingShims

/// The author to store with a message that has to wait: `author` itself, unless it is being
/// deinitialized, since a reference kept past the end of a `deinit` stops the program.
///
/// A dying author is replaced by `standIn`, the messenger the message is sent through. If that
/// messenger is being deinitialized too, the message is dropped (`nil`): the messenger's
/// observations end with it, so the message would never be delivered anyway.
///
/// - Parameter standIn: The messenger the message goes through; `nil` where none is at hand (the
///   inner state of a transform), and then `_noAuthor` stands in.
/// - Complexity: O(1): one atomic load of the author's reference count.
@inlinable @inline(__always)
func _authorToKeep(_ author: AnyObject, standIn: AnyObject?) -> AnyObject? {
    _isDeallocating(author) ? _standInAuthor(standIn) : author
}

/// The author that stands in for one being deinitialized; see ``_authorToKeep(_:standIn:)``.
@usableFromInline @inline(never)
func _standInAuthor(_ standIn: AnyObject?) -> AnyObject? {
    guard let standIn else { return _noAuthor }
    return _isDeallocating(standIn) ? nil : standIn
}

/// Whether `object` has started its `deinit`.
@inlinable @inline(__always)
func _isDeallocating(_ object: AnyObject) -> Bool {
    _messaging_is_deallocating(Unmanaged.passUnretained(object).toOpaque())
}
