// expected-error: cannot form main actor-isolated conformance of 'Panel' to SendableMetatype-inheriting protocol 'GeneralSubscriber'
//
// compile-with: Sources/GeneralObserver/GeneralObserver.swift (the copyable file, no import)
//
// Rejected because an observable lists, casts and unsubscribes its observers on whichever thread
// asks. A conformance isolated to the main actor cannot be used off it: there the panel would be
// missing from `observers` and would stay subscribed after `unsubscribeAll()`. GeneralSubscriber
// inherits SendableMetatype, so the compiler refuses the isolated conformance instead. Conform
// without `@MainActor` before the protocol and keep the requirements nonisolated.

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@MainActor
final class Panel: @MainActor GeneralSubscriber {
    let uuid = UUID()
}
