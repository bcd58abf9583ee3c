extension FilteredArrayView where Element: Equatable {
    /// A view of the included elements sorted by `areInIncreasingOrder`, kept sorted per change:
    /// GlueKit's `selectFirstN(_:filteredBy:orderBy:)` is this view's ``SortedArrayView/prefix(_:)``.
    ///
    /// ```swift
    /// let yourFiveNewest = issues
    ///     .filteredElements { $0.isOpen && $0.owner == me }
    ///     .sortedView { $0.created > $1.created }
    ///     .prefix(5)
    /// ```
    ///
    /// The sorted view follows the array itself, not this view: it keeps a tree of the included
    /// elements only, skipping the others with the same predicate, whether this view is observed
    /// or not. Its ``SortedArrayView/array`` is the filtered array. See ``SortedArrayView`` for the
    /// order of equivalent elements and what it sends.
    ///
    /// - Parameter areInIncreasingOrder: Whether its first argument goes before its second: a
    ///   strict weak ordering, as for `sorted(by:)`.
    /// - Returns: A ``SortedArrayView`` of the included elements.
    /// - Complexity: O(1) to make; per element the array inserts or removes, while observed, one
    ///   call of the predicate and, for an included element, O(log *n*) for *n* included elements.
    @inlinable
    public func sortedView(
        by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
    ) -> SortedArrayView<Element> {
        SortedArrayView(array, limit: nil, isIncluded: _isIncluded, by: areInIncreasingOrder)
    }

    /// An observable of the least included element by `areInIncreasingOrder`, or `nil` when no
    /// element is included.
    ///
    /// Like ``sortedView(by:)``, it follows the array itself, skipping the elements the predicate
    /// excludes.
    ///
    /// - Parameter areInIncreasingOrder: Whether its first argument goes before its second: a
    ///   strict weak ordering.
    /// - Returns: An ``ArrayExtremum`` that sends an update when the least included element
    ///   changes.
    /// - Complexity: O(1) to make; per element the array inserts or removes, while observed, one
    ///   call of the predicate and, for an included element, O(log *n*).
    @inlinable
    public func observableMin(
        by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
    ) -> ArrayExtremum<Element> {
        ArrayExtremum(leastOf: array, isIncluded: _isIncluded, by: areInIncreasingOrder)
    }

    /// An observable of the greatest included element by `areInIncreasingOrder`, or `nil` when no
    /// element is included.
    ///
    /// - Parameter areInIncreasingOrder: Whether its first argument goes before its second: a
    ///   strict weak ordering.
    /// - Returns: An ``ArrayExtremum`` that sends an update when the greatest included element
    ///   changes.
    /// - Complexity: As ``observableMin(by:)``.
    @inlinable
    public func observableMax(
        by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
    ) -> ArrayExtremum<Element> {
        ArrayExtremum(leastOf: array, isIncluded: _isIncluded, by: { areInIncreasingOrder($1, $0) })
    }
}

extension FilteredArrayView where Element: Comparable {
    /// A view of the included elements in ascending order, kept sorted per change.
    ///
    /// - Returns: A ``SortedArrayView`` of the included elements by `<`.
    /// - Complexity: As ``sortedView(by:)``.
    @inlinable
    public func sortedView() -> SortedArrayView<Element> {
        sortedView(by: { $0 < $1 })
    }

    /// An observable of the least included element, or `nil` when no element is included.
    ///
    /// - Complexity: As ``observableMin(by:)``.
    @inlinable
    public var observableMin: ArrayExtremum<Element> {
        observableMin(by: { $0 < $1 })
    }

    /// An observable of the greatest included element, or `nil` when no element is included.
    ///
    /// - Complexity: As ``observableMin(by:)``.
    @inlinable
    public var observableMax: ArrayExtremum<Element> {
        observableMin(by: { $0 > $1 })
    }
}

extension FilteredArrayView {
    /// An incremental fold of the included elements: a result with a function that adds an element
    /// to it and one that takes an element out again, as ``ObservableArray/fold(_:adding:removing:)``
    /// makes for a whole array.
    ///
    /// ```swift
    /// let openEstimate = issues.filteredElements { $0.isOpen }.fold(0, adding: { $0 + $1.estimate },
    ///                                                             removing: { $0 - $1.estimate })
    /// ```
    ///
    /// The fold follows the array itself, not this view: it adds and takes out only the elements
    /// the predicate includes, whether this view is observed or not. Its ``ArrayFold/array`` is
    /// the filtered array.
    ///
    /// - Parameters:
    ///   - initial: The result for no elements.
    ///   - adding: The result with one more element.
    ///   - removing: The result without an element that `adding` added; it must undo `adding`.
    /// - Returns: An ``ArrayFold`` of the included elements.
    /// - Complexity: O(1) to make; per change, while observed, O(*k*) calls of the predicate and
    ///   of `adding` or `removing` for *k* elements removed and inserted.
    @inlinable
    public func fold<Result: Equatable & Sendable>(
        _ initial: Result,
        adding: @escaping @Sendable (Result, Element) -> Result,
        removing: @escaping @Sendable (Result, Element) -> Result
    ) -> ArrayFold<Element, Result> {
        let isIncluded = _isIncluded
        return ArrayFold(
            array, initial: initial,
            adding: { result, element in isIncluded(element) ? adding(result, element) : result },
            removing: { result, element in isIncluded(element) ? removing(result, element) : result }
        )
    }
}

extension FilteredArrayView where Element: AdditiveArithmetic & Equatable {
    /// An observable of the sum of the included elements, updated per change without adding up
    /// the others.
    ///
    /// - Complexity: As ``fold(_:adding:removing:)``.
    @inlinable
    public var observableSum: ArrayFold<Element, Element> {
        fold(.zero, adding: { $0 + $1 }, removing: { $0 - $1 })
    }
}
