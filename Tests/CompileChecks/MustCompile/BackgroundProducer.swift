// A background producer sending from a detached task and from a thread; Sendable observers.
import Foundation
import Messaging
import Synchronization

final class Thermometer: Sendable {
    let readings = Messenger<Double>()
    let current = Var(0.0)

    func start() -> Task<Void, Never> {
        Task.detached {
            for reading in [20.5, 21.0, 21.5] {
                self.readings.send(reading)
                self.current.value = reading
            }
        }
    }
}

/// A plain observer: `Sendable`, with its state behind a lock.
final class Logger: Observer, Sendable {
    let receiver = Receiver()
    private let lines = Mutex<[String]>([])

    func watch(_ thermometer: Thermometer) {
        observe(thermometer.readings) { reading in
            self.lines.withLock { $0.append("\(reading)") }
        }
        observeWeakly(thermometer.current) { logger, update in
            logger.lines.withLock { $0.append("\(update.old) -> \(update.new)") }
        }
    }

    var count: Int { lines.withLock { $0.count } }
}

func produce() async {
    let thermometer = Thermometer()
    let logger = Logger()
    logger.watch(thermometer)
    await thermometer.start().value
    let thread = Thread { thermometer.readings.send(22.0) }
    thread.start()

    // Tokens with Sendable state; a Var counts atomically.
    let received = Var(0)
    let token = thermometer.readings.subscribe { _ in received.modify { $0 += 1 } }
    thermometer.readings.send(23.0)
    received.modify { $0 += 1 }
    print(logger.count, received.value)
    withExtendedLifetime(token) {}
}
