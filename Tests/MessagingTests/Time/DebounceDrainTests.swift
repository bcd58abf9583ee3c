import Dispatch
import Testing

@testable import Messaging

/// A debounce whose countdown ends while the previous message is still going through the rest:
/// the later message waits in the stage's drain and goes on after it, never beside it.
@Suite("Debounce drain: messages whose countdowns ended go on one at a time, in order", .timeLimit(.minutes(10)))
struct DebounceDrainTests {
    @Test("A message whose countdown ends while the previous one is being sent waits behind it")
    func aLaterMessageWaitsBehindTheOneGoingOn() async {
        let clock = ManualClock()
        let source = Messenger<Int>()
        let debounced = source.debounce(for: .seconds(10), clock: clock)
        let log = EventLog()
        let release = DispatchSemaphore(value: 0)
        let token = debounced.subscribe { number in
            log.append("start \(number)")
            if number == 1 { release.wait() }  // the first message holds its sleeper's task
            log.append("end \(number)")
        }
        source.send(1)
        await clock.waitForSleepers(at: [.seconds(10)])
        clock.advance(to: ManualClock.Instant(.seconds(10)))
        #expect(await eventually { log.entries == ["start 1"] })
        // A second burst, whose countdown ends while the first message is still being sent.
        source.send(2)
        await clock.waitForSleepers(at: [.seconds(20)])
        clock.advance(to: ManualClock.Instant(.seconds(20)))
        #expect(await eventually { debounced._debounce._waitingCount == 1 })
        #expect(log.entries == ["start 1"])
        release.signal()
        #expect(await eventually { log.entries.count == 4 })
        #expect(log.entries == ["start 1", "end 1", "start 2", "end 2"])
        #expect(debounced._debounce._waitingCount == 0)
        withExtendedLifetime(token) {}
    }
}
