import Testing

@testable import Messaging

/// An observable array is released when nothing holds it, observed or not.
@Suite("ObservableArray: lifetime")
struct ObservableArrayLifetimeTests {
    @Test func anObservedArrayIsReleasedWithItsLastReference() {
        weak var weakArray: ObservableArray<Probe>?
        weak var weakProbe: Probe?
        var recorder: ArrayChangeRecorder<Probe>?
        do {
            let array = ObservableArray<Probe>()
            let probe = Probe()
            weakArray = array
            weakProbe = probe
            recorder = ArrayChangeRecorder(array)
            array.append(probe)
            array.withTransaction { array.remove(at: 0) }
        }
        #expect(weakArray == nil)
        _ = recorder?.take()
        #expect(weakProbe == nil)
        withExtendedLifetime(recorder) {}
    }

    @Test func theCountStopsHoldingTheArrayWhenItsObservationEnds() {
        weak var weakArray: ObservableArray<Int>?
        var token: ObservationToken?
        do {
            let array = ObservableArray([1])
            weakArray = array
            token = array.observableCount.subscribe { _ in }
            array.append(2)
        }
        #expect(weakArray != nil)
        token?.stopObserving()
        token = nil
        #expect(weakArray == nil)
    }
}
