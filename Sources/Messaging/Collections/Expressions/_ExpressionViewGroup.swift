// The count of a view that follows each element's observable property, observed together with the
// folds and extremes of the view's array.
//
// GlueKit's summary divides the count of open issues (a `PropertyFilteredArrayView` of the issues
// by `isOpen`) by the count of all issues (the array's `observableCount`). Filing an open issue
// changes both; observed apart, the two reach the expression in turn and the share shows the new
// total with the old open count. No fold of the array can count the view's elements, since they
// change with each element's property, not with the array. So the view itself reports, while a
// group observes it, one count step per change it applies: each change of the array with the
// view's count after it, and each change of that count by a property. Applying the array's changes
// to the folds and extremes and taking the view's count from the same step keeps them one moment.
//
// A group starts from a snapshot that the view posts among its steps when the group asks for it
// (the contents and the count, read under the view's lock): every step before it is already in
// the snapshot, every step after it follows, so the group needs no lock of its own.

/// One step of a view's count, as an expression's group follows it.
enum _ViewCountStep<Element: Sendable>: Sendable {
    /// The contents of the array and the view's count, for the group whose token it names.
    case snapshot(ObjectIdentifier, contents: [Element], count: Int)
    /// A change of the array that the view applied, with the view's count after it.
    case arrayChanged(ArrayChange<Element>, count: Int)
    /// A change of the view's count by an element's property.
    case countChanged(Int)
    /// The first message of a group's observation: it asks for its snapshot when it gets it.
    case start(ObjectIdentifier)
}

/// A view whose count an expression observes together with its array's folds and extremes.
protocol _CountStepView: AnyObject, Sendable {
    associatedtype Element: Sendable

    /// The array the view follows.
    var array: ObservableArray<Element> { get }
    /// The view's count steps, which it sends while observed.
    var _countSteps: Messenger<_ViewCountStep<Element>> { get }
    /// Posts a snapshot among the count steps for the group with this token, as soon as the view
    /// has read its contents.
    func _requestCountSnapshot(for token: ObjectIdentifier, isolation: (any Actor)?)
    /// The contents of the array and the view's count, read together.
    var _countSnapshot: (contents: [Element], count: Int) { get }
}

/// The count of a view and the folds and extremes of its array, in one observation of the view's
/// count steps: its value is the list of their results, in the order of the members.
final class _ExpressionViewGroup<View: _CountStepView>: ObservableCache, _StandaloneOperator {
    typealias Element = View.Element
    typealias Member = _ArrayChangeMember<Element>?

    let messenger = Messenger<Update<_FoldResults>>()
    let view: View
    /// For each member, how it follows the array; `nil` for the view's count.
    let _members: [Member]
    let _shape: _FoldGroupShape
    let _link: _OriginLink<View, _ViewCountStep<Element>>

    init(_ view: View, members: [Member]) {
        self.view = view
        _members = members
        let shape = _FoldGroupShape(isEqual: members.map { $0?.isEqual ?? Self._countsAreEqual })
        _shape = shape
        let core = messenger._core
        _link = _OriginLink(
            view, messengerOf: { $0._countSteps }, isObserved: { core.observationCount > 0 },
            // Every observation gets its own handler from `replayOf`.
            handler: { _, _, _ in },
            replayOf: { view in
                // Each observation's token, states and last results; the messenger delivers to one
                // observation one step at a time, so they need no lock.
                let token = _GroupToken()
                let id = ObjectIdentifier(token)
                var states: [(apply: (ArrayChange<Element>) -> Bool, result: () -> any Sendable)?] = []
                var results: _FoldResults?
                return (
                    { .start(id) }, view,
                    { step, author, isolation in
                        withExtendedLifetime(token) {}
                        let count: Int
                        var changed = false
                        switch step {
                        case .start(let requester):
                            guard requester == id else { return }
                            view._requestCountSnapshot(for: id, isolation: isolation)
                            return
                        case .snapshot(let requester, let contents, let count):
                            guard requester == id, results == nil else { return }
                            states = members.map { $0?.start(contents) }
                            results = _FoldResults(
                                states.map { $0?.result() ?? count }, shape: shape)
                            return
                        case .arrayChanged(let change, let newCount):
                            guard results != nil else { return }
                            for state in states where state?.apply(change) ?? false { changed = true }
                            count = newCount
                        case .countChanged(let newCount):
                            guard results != nil else { return }
                            count = newCount
                        }
                        guard let old = results else { return }
                        var new = old
                        for index in states.indices {
                            if let state = states[index] {
                                if changed { new.values[index] = state.result() }
                            } else if old.values[index] as! Int != count {
                                new.values[index] = count
                                changed = true
                            }
                        }
                        guard changed else { return }
                        results = new
                        core.send(Update(old, new), author: author, checksChange: false, isolation: isolation)
                    }
                )
            }
        )
        core.keepAliveWhileObserved(self)
    }

    @Sendable static func _countsAreEqual(_ lhs: any Sendable, _ rhs: any Sendable) -> Bool {
        (lhs as! Int) == (rhs as! Int)
    }

    /// The results for one snapshot of the array and the view.
    ///
    /// - Complexity: O(*n*) for *n* elements per fold and for the view's count while it is not
    ///   observed, O(*n* log *n*) per extreme.
    var latestMessage: Update<_FoldResults> {
        let (contents, count) = view._countSnapshot
        let results = _FoldResults(_members.map { $0?.start(contents).result() ?? count }, shape: _shape)
        return Update(results, results)
    }

    func _observedChanged() {
        _updateLinks()
    }

    func _forEachLink(_ body: (any _AnyOriginLink) -> Void) {
        body(_link)
    }
}

// The link guards the view and its observation; each observation's states are touched by its
// handler alone, one step at a time; the rest is immutable.
extension _ExpressionViewGroup: @unchecked Sendable {}

/// The identity of one observation of a view's count steps.
final class _GroupToken: Sendable {}

extension _ExpressionFoldMember {
    /// The member of the count of `view`: it leads its array's group, which then follows the
    /// view's count steps instead of the array.
    init<View: _CountStepView>(countOf view: View) {
        self.init(
            collectionID: ObjectIdentifier(view.array), resultType: ObjectIdentifier(Int.self), typed: (),
            needsChangeGroup: true, viewID: ObjectIdentifier(view),
            makeGroup: { members in
                // Every other member follows the view's array, so they share its element type.
                _ExpressionSource(
                    _ExpressionViewGroup(
                        view,
                        members: members.map { member in
                            member.viewID == nil ? (member.changeMember as! _ArrayChangeMember<View.Element>) : nil
                        }))
            })
    }
}
