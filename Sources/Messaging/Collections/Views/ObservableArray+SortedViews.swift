extension ObservableArray where Element: Equatable {
    /// A view of the elements sorted by `areInIncreasingOrder`, kept sorted per change.
    ///
    /// ```swift
    /// let byDueDate = tasks.sortedView { $0.dueDate < $1.dueDate }
    /// let nextThree = byDueDate.prefix(3)
    /// ```
    ///
    /// See ``SortedArrayView`` for the order of equivalent elements and what it sends.
    ///
    /// - Parameter areInIncreasingOrder: Whether its first argument goes before its second: a
    ///   strict weak ordering, as for `sorted(by:)`.
    /// - Returns: A ``SortedArrayView`` of the array.
    /// - Complexity: O(1) to make; per element inserted or removed, while observed, O(log *n*).
    @inlinable
    public func sortedView(
        by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
    ) -> SortedArrayView<Element> {
        SortedArrayView(self, by: areInIncreasingOrder)
    }

    /// An observable of the least element by `areInIncreasingOrder`, or `nil` when the array is
    /// empty.
    ///
    /// - Parameter areInIncreasingOrder: Whether its first argument goes before its second: a
    ///   strict weak ordering.
    /// - Returns: An ``ArrayExtremum`` that sends an update when the least element changes.
    /// - Complexity: O(1) to make; per element inserted or removed, while observed, O(log *n*).
    @inlinable
    public func observableMin(
        by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
    ) -> ArrayExtremum<Element> {
        ArrayExtremum(leastOf: self, by: areInIncreasingOrder)
    }

    /// An observable of the greatest element by `areInIncreasingOrder`, or `nil` when the array is
    /// empty.
    ///
    /// - Parameter areInIncreasingOrder: Whether its first argument goes before its second: a
    ///   strict weak ordering.
    /// - Returns: An ``ArrayExtremum`` that sends an update when the greatest element changes.
    /// - Complexity: O(1) to make; per element inserted or removed, while observed, O(log *n*).
    @inlinable
    public func observableMax(
        by areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool
    ) -> ArrayExtremum<Element> {
        ArrayExtremum(leastOf: self, by: { areInIncreasingOrder($1, $0) })
    }
}

extension ObservableArray where Element: Comparable {
    /// A view of the elements in ascending order, kept sorted per change.
    ///
    /// - Returns: A ``SortedArrayView`` of the array by `<`.
    /// - Complexity: O(1) to make; per element inserted or removed, while observed, O(log *n*).
    @inlinable
    public func sortedView() -> SortedArrayView<Element> {
        SortedArrayView(self, by: { $0 < $1 })
    }

    /// An observable of the least element, or `nil` when the array is empty.
    ///
    /// - Complexity: O(1) to make; per element inserted or removed, while observed, O(log *n*).
    @inlinable
    public var observableMin: ArrayExtremum<Element> {
        ArrayExtremum(leastOf: self, by: { $0 < $1 })
    }

    /// An observable of the greatest element, or `nil` when the array is empty.
    ///
    /// - Complexity: O(1) to make; per element inserted or removed, while observed, O(log *n*).
    @inlinable
    public var observableMax: ArrayExtremum<Element> {
        ArrayExtremum(leastOf: self, by: { $0 > $1 })
    }
}
