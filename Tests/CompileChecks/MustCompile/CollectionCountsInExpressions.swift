// A main-actor screen that shows numbers computed from observable collections: the count of a set,
// the count of a filtered view, the count of a filter by each element's observable flag, the
// extremes of an array and formulas over them, each kept up to date by handlers that use main-actor
// state directly, with no escape hatch, no hop and no cast.
import Messaging

struct Task: Hashable, Sendable {
    let title: String
    var isDone: Bool
    var minutes: Int
}

final class Alarm: Sendable {
    let isRinging = Var(false)
}

final class Board: Sendable {
    let tasks = ObservableArray<Task>()
    let alarms = ObservableArray<Alarm>()
    let tags = ObservableSet<String>()
    let filter = Var("")
}

@MainActor
final class BoardSummary {
    private(set) var doneShare = 0
    private(set) var tagCount = 0
    private(set) var spread = 0
    private(set) var matchingTags = 0
    private(set) var ringingShare = 0
    private let bag = ObservationBag()

    init(board: Board) {
        let done = ObservableExpression(board.tasks.filteredElements { $0.isDone }.observableCount)
        let all = ObservableExpression(board.tasks.observableCount)
        done.multiplied(by: 100).divided(by: all, ifZero: 0)
            .subscribeIsolated(replayingLatest: true) { [weak self] update in self?.doneShare = update.new }
            .store(in: bag)

        let longest = ObservableExpression(board.tasks.observableMax { $0.minutes < $1.minutes })
        let shortest = ObservableExpression(board.tasks.observableMin { $0.minutes < $1.minutes })
        longest.combined(with: shortest) { ($0?.minutes ?? 0) - ($1?.minutes ?? 0) }
            .subscribeIsolated { [weak self] update in self?.spread = update.new }
            .store(in: bag)

        let ringing = ObservableExpression(board.alarms.filteredElements(by: \.isRinging).observableCount)
        ringing.multiplied(by: 100).divided(by: ObservableExpression(board.alarms.observableCount), ifZero: 0)
            .subscribeIsolated { [weak self] update in self?.ringingShare = update.new }
            .store(in: bag)

        board.tags.observableCount
            .subscribeIsolated { [weak self] update in self?.tagCount = update.new }
            .store(in: bag)

        let matching = board.tags.filteredElements(matching: board.filter) { tag, filter in
            filter.isEmpty || tag.hasPrefix(filter)
        }
        ObservableExpression(matching.observableCount).adding(0)
            .subscribeIsolated { [weak self] update in self?.matchingTags = update.new }
            .store(in: bag)
    }
}
