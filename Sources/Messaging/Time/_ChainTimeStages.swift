// What the time stages of chains share. A time stage (`debounce`, `throttle`, `delay`, `timeout`)
// is an object per observation, made when the chain gets its handler and owned by the composed
// handler: `_ChainDebounce`, `_ChainThrottle`, `_ChainLatestThrottle`, `_ChainDelay`,
// `_ChainTimeout`. Each keeps a state machine (`_DebounceState`, `_ThrottleState`,
// `_LatestThrottleState`, `_DelayState`, `_TimeoutState`) that decides what to do, under the
// stage's lock where a sleeper shares the state, and the stage does it after unlocking. A stage that sends messages on later
// does so from a sleeper task (`_Timeline.startSleeper`), which holds the stage weakly, so an
// observation that ends and is released cancels its countdown; it sends through what its chain
// gave it (`appendingTimed`'s `later`): the rest of the chain itself, or a call posted to the
// chain's actor queue. Messages that go on at once go on from the stage, as any stage's do.

/// A message and its author, as a time stage keeps them.
@usableFromInline
struct _Authored<Value> {
    @usableFromInline let value: Value
    @usableFromInline let author: AnyObject

    @inlinable
    init(value: Value, author: AnyObject) {
        self.value = value
        self.author = author
    }
}

/// The author of what a time stage sends on when it has none: the messages after a hop (the
/// stages after a hop do not get the messages' authors) and a timeout's `nil`. One shared object,
/// never the stage itself, which would keep itself alive through a message it holds.
@usableFromInline
final class _NoAuthor: Sendable {
    @usableFromInline
    init() {}
}

@usableFromInline
let _noAuthor = _NoAuthor()
