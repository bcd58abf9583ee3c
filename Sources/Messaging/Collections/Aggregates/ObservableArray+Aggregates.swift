extension ObservableArray {
    /// An incremental fold of the array: a result kept up to date by adding each inserted element
    /// and removing each removed one.
    ///
    /// ```swift
    /// let words = ObservableArray(["a", "bb"])
    /// let letters = words.fold(0, adding: { $0 + $1.count }, removing: { $0 - $1.count })
    /// ```
    ///
    /// See ``ArrayFold`` for when it observes the array and what it sends.
    ///
    /// - Parameters:
    ///   - initial: The result of an empty array.
    ///   - adding: The result with one more element.
    ///   - removing: The result with one element fewer; it must undo `adding` exactly.
    /// - Returns: An observable of the result's updates.
    /// - Complexity: O(1) to make; per change, while observed, O(*k*) for *k* elements removed
    ///   and inserted.
    @inlinable
    public func fold<Result: Equatable & Sendable>(
        _ initial: Result,
        adding: @escaping @Sendable (Result, Element) -> Result,
        removing: @escaping @Sendable (Result, Element) -> Result
    ) -> ArrayFold<Element, Result> {
        ArrayFold(self, initial: initial, adding: adding, removing: removing)
    }

    /// An observable of how many elements satisfy `isIncluded`, updated per change without
    /// looking at the other elements.
    ///
    /// ```swift
    /// let openCount = issues.observableCount { $0.isOpen }
    /// ```
    ///
    /// - Parameter isIncluded: Whether an element counts; it must give the same answer for an
    ///   element every time (a property that can change is followed only through an edit of the
    ///   array that replaces the element).
    /// - Returns: An ``ArrayFold`` of the count.
    /// - Complexity: O(1) to make; per change, while observed, O(*k*) calls of `isIncluded` for
    ///   *k* elements removed and inserted.
    @inlinable
    public func observableCount(
        where isIncluded: @escaping @Sendable (Element) -> Bool
    ) -> ArrayFold<Element, Int> {
        ArrayFold(
            self, initial: 0,
            adding: { count, element in isIncluded(element) ? count + 1 : count },
            removing: { count, element in isIncluded(element) ? count - 1 : count }
        )
    }
}

extension ObservableArray where Element: AdditiveArithmetic & Equatable {
    /// An observable of the sum of the elements, updated per change without adding up the
    /// other elements.
    ///
    /// With floating-point elements the running sum is rounded at each step, and may differ from
    /// adding up the current elements in order.
    ///
    /// - Complexity: O(1) to make; per change, while observed, O(*k*) for *k* elements removed
    ///   and inserted.
    @inlinable
    public var observableSum: ArrayFold<Element, Element> {
        ArrayFold(self, initial: .zero, adding: { $0 + $1 }, removing: { $0 - $1 })
    }
}
