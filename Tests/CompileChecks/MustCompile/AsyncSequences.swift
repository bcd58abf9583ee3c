// A main-actor consumer of async sequences fed by a background producer: no unsafe annotations.
import Foundation
import Messaging

final class Sensor: ObservableSource, Sendable {
    let messenger = Messenger<Double>()
    let isOnline = Var(false)

    /// Sends from a detached task, then from a thread.
    func start() -> Task<Void, Never> {
        Task.detached {
            self.isOnline.value = true
            for reading in [20.5, 21.0] { self.send(reading) }
            let thread = Thread { self.send(21.5) }
            thread.start()
        }
    }
}

@MainActor
final class Dashboard {
    private(set) var readings: [Double] = []
    private(set) var isOnline = false
    private var tasks: [Task<Void, Never>] = []

    func watch(_ sensor: Sensor) {
        tasks.append(
            Task {
                for await reading in sensor.messages(bufferingPolicy: .newest(10)) {
                    readings.append(reading)  // main-actor state, on the main actor
                }
            }
        )
        tasks.append(
            Task {
                for await online in sensor.isOnline.values {
                    isOnline = online
                }
            }
        )
    }

    func stop() {
        for task in tasks { task.cancel() }
    }
}

actor Recorder {
    private var lines: [String] = []

    func record(from sensor: Sensor) async {
        for await reading in sensor.messages {
            lines.append("\(reading)")
            if lines.count == 3 { break }
        }
    }
}

@MainActor
func run() async {
    let sensor = Sensor()
    let dashboard = Dashboard()
    dashboard.watch(sensor)
    let recorder = Recorder()
    let recording = Task { await recorder.record(from: sensor) }

    // Driving a messenger and a variable from async sequences.
    let (readings, input) = AsyncStream.makeStream(of: Double.self)
    let forwarding = Task { await sensor.send(contentsOf: readings) }
    input.yield(19.0)
    input.finish()
    await forwarding.value
    let mirror = Var(false)
    let mirroring = Task { await mirror.assign(contentsOf: sensor.isOnline.values) }

    await sensor.start().value
    dashboard.stop()
    mirroring.cancel()
    recording.cancel()
    print(dashboard.readings, dashboard.isOnline, mirror.value)
}
