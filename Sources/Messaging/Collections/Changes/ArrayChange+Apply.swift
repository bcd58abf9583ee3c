extension ArrayChange {
    /// Turns `array`, which must hold the contents before the change, into the contents after it.
    ///
    /// The array's elements are not compared with the change's old elements: the change puts its
    /// new elements where its old ones were, whatever the array holds there.
    ///
    /// ```swift
    /// var letters = ["a", "b", "c"]
    /// ArrayChange(removingAt: 1, from: letters).apply(to: &letters)  // ["a", "c"]
    /// ```
    ///
    /// - Parameter array: The array to change; its count must be ``countBefore``, or the program
    ///   stops with a message.
    /// - Complexity: O(*k*) when no modification changes the count (each replaced element is
    ///   written in place); O(*k* + the elements after the modification) for one modification
    ///   (as `replaceSubrange`); otherwise O(*n* + *k*), where *n* is the array's count and *k* the
    ///   number of elements the change removes and inserts.
    @inlinable
    public func apply(to array: inout [Element]) {
        precondition(
            array.count == _countBefore,
            "ArrayChange.apply(to:): the array has \(array.count) elements, but the change is for an array of \(_countBefore)"
        )
        switch _spans.count {
        case 0:
            return
        case 1:
            let span = _spans[0]
            array.replaceSubrange(span.offset..<(span.offset + span.oldCount), with: _new[span.newRange])
        default:
            if _spans.allSatisfy({ $0.oldCount == $0.newCount }) {
                for span in _spans {
                    for index in 0..<span.oldCount {
                        array[span.offset + index] = _new[span.newStart + index]
                    }
                }
            } else {
                var result: [Element] = []
                result.reserveCapacity(_countAfter)
                var unchangedStart = 0
                for span in _spans {
                    result.append(contentsOf: array[unchangedStart..<span.offset])
                    result.append(contentsOf: _new[span.newRange])
                    unchangedStart = span.offset + span.oldCount
                }
                result.append(contentsOf: array[unchangedStart...])
                array = result
            }
        }
    }

    /// The contents after the change, made from `array`, the contents before it.
    ///
    /// - Parameter array: The contents before the change; its count must be ``countBefore``, or
    ///   the program stops with a message.
    /// - Returns: The contents after the change.
    /// - Complexity: O(*n* + *k*), where *n* is the array's count and *k* the number of elements
    ///   the change removes and inserts.
    @inlinable
    public func applied(to array: [Element]) -> [Element] {
        var result = array
        apply(to: &result)
        return result
    }
}
