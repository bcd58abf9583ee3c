// DeviceMonitor: a few sensors in a building, an alarm logger and a dashboard.
//
// The GeneralObserver protocols keep track of who is subscribed to whom, and nothing more. Handing
// out the readings is the sensors' own business; here a sensor walks its `observers` and calls the
// ones that understand readings.

import GeneralObserver

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Anything that wants a sensor's readings.
protocol ReadingHandler: GeneralSubscriber {
    /// How the output names this handler.
    var name: String { get }

    /// Receives one reading from `sensor`.
    func sensor(_ sensor: Sensor, didRead value: Double)
}

/// A device that takes readings. Observers subscribe to it.
final class Sensor: GeneralObservable {
    let subscriptionLedger = SubscriptionLedger()
    let name: String
    let unit: String

    init(name: String, unit: String) {
        self.name = name
        self.unit = unit
    }

    deinit {
        print("  \(name) sensor removed from the building")
    }

    /// Takes a reading and hands it to every live observer, in the order they subscribed.
    func read(_ value: Double) {
        print("\(name): \(value) \(unit)")
        for observer in observers {
            (observer as? any ReadingHandler)?.sensor(self, didRead: value)
        }
    }

    func observer(_ observer: any GeneralSubscriber, didSubscribe: Bool) {
        let who = (observer as? any ReadingHandler)?.name ?? "an unknown observer"
        print("  \(name): \(who) \(didSubscribe ? "subscribed" : "unsubscribed")")
    }
}

/// The alarm log that every copy of an ``AlarmLogger`` writes to.
final class AlarmLog {
    private(set) var entries: [String] = []

    func record(_ entry: String) {
        entries.append(entry)
    }
}

/// Logs every reading above a limit.
///
/// A value type: each sensor it subscribes to keeps its own copy, and all the copies share one
/// `AlarmLog` (which the copies keep alive while they are subscribed).
struct AlarmLogger: ReadingHandler {
    let uuid = UUID()
    let name = "alarm logger"
    let limit: Double
    let log: AlarmLog

    func sensor(_ sensor: Sensor, didRead value: Double) {
        guard value > limit else { return }
        let entry = "\(sensor.name) at \(value) \(sensor.unit), above \(limit)"
        log.record(entry)
        print("    ALARM: \(entry)")
    }
}

/// A screen in the lobby that shows whatever it is subscribed to. A class, held weakly by the
/// sensors, and not tracking its subscriptions.
final class LobbyScreen: ReadingHandler {
    let uuid = UUID()
    let name = "lobby screen"

    deinit {
        print("  lobby screen switched off")
    }

    func sensor(_ sensor: Sensor, didRead value: Double) {
        print("    lobby screen shows \(sensor.name): \(value) \(sensor.unit)")
    }
}

/// The control-room dashboard: one tile per sensor it is subscribed to, with the latest reading.
///
/// A tracking subscriber, so it knows its sensors; it holds them weakly and forgets one that is
/// removed from the building.
final class Dashboard: GeneralTrackingSubscriber, ReadingHandler {
    let subscriptionLedger = SubscriptionLedger()
    let name = "dashboard"
    private var latest: [UUID: Double] = [:]

    func subscribedTo(_ observable: any GeneralObservable) {
        print("  dashboard: tile added for \(Self.title(of: observable))")
    }

    func unsubscribedFrom(_ observable: any GeneralObservable) {
        latest[observable.uuid] = nil
        print("  dashboard: tile removed for \(Self.title(of: observable))")
    }

    func sensor(_ sensor: Sensor, didRead value: Double) {
        latest[sensor.uuid] = value
    }

    /// Prints one line per sensor it is subscribed to, in the order it subscribed.
    func show() {
        print("  +-- dashboard ----------------------")
        for case let sensor as Sensor in subscriptions {
            let reading = latest[sensor.uuid].map { "\($0) \(sensor.unit)" } ?? "no reading yet"
            print("  | \(sensor.name): \(reading)")
        }
        print("  +-----------------------------------")
    }

    private static func title(of observable: any GeneralObservable) -> String {
        (observable as? Sensor)?.name ?? "an unknown observable"
    }
}

func sensors(_ count: Int) -> String {
    count == 1 ? "1 sensor" : "\(count) sensors"
}

func names(_ observers: [any GeneralSubscriber]) -> String {
    let names = observers.map { ($0 as? any ReadingHandler)?.name ?? "?" }
    return names.isEmpty ? "nobody" : names.joined(separator: ", ")
}

let alarmLog = AlarmLog()
let logger = AlarmLogger(limit: 30, log: alarmLog)
let dashboard = Dashboard()
let hall = Sensor(name: "Hall", unit: "°C")
var serverRoom: Sensor? = Sensor(name: "Server room", unit: "°C")
let basement = Sensor(name: "Basement humidity", unit: "%")
var lobbyScreen: LobbyScreen? = LobbyScreen()

print("== Wiring up")
hall.subscribe(dashboard)
serverRoom?.subscribe(dashboard)
basement.subscribe(dashboard)
hall.subscribe(logger)
serverRoom?.subscribe(logger)
if let lobbyScreen {
    hall.subscribe(lobbyScreen)
}

// `subscribe` returns the observer with its own type, or nil when nothing changed.
let again: Dashboard? = hall.subscribe(dashboard)
print("Subscribing the dashboard to the hall again: \(again == nil ? "ignored, already subscribed" : "subscribed")")
print("Hall observers: \(names(hall.observers))")

print("\n== Morning readings")
hall.read(21.5)
serverRoom?.read(24)
basement.read(55)
dashboard.show()

print("\n== The lobby screen is switched off")
lobbyScreen = nil
print("Hall observers: \(names(hall.observers))")

print("\n== Afternoon readings")
hall.read(30.5)
serverRoom?.read(31.5)
dashboard.show()

print("\n== The dashboard stops showing the basement")
basement.unsubscribe(dashboard)
print("Dashboard subscribed to the basement: \(dashboard.amISubscribed(basement))")
print("Basement observers: \(names(basement.observers))")

print("\n== The server-room sensor is taken out")
print("Dashboard follows \(sensors(dashboard.subscriptions.count))")
serverRoom = nil
print("Dashboard follows \(sensors(dashboard.subscriptions.count))")
dashboard.show()

print("\n== Summary")
print("Hall observers: \(names(hall.observers))")
print("Basement observers: \(names(basement.observers))")
print("Logger subscribed to the hall: \(hall.amISubscribed(logger))")
print("Alarms logged: \(alarmLog.entries.count)")
for entry in alarmLog.entries {
    print("  - \(entry)")
}
