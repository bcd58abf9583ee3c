import Foundation
import Testing

@testable import PostgresMessaging

@Suite(.needsPostgres, .timeLimit(.minutes(1)))
struct TwoProcessTests {
    /// Two SharedTaskBoard processes each exit with 0 only if they received exactly the other's
    /// changes, in order, with the mirror as author.
    @Test func twoProcessesShareTheirChangesInOrder() async throws {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [directory, directory.deletingLastPathComponent()].map {
            $0.appendingPathComponent("SharedTaskBoard").path
        }
        let example = try #require(
            candidates.first { FileManager.default.isExecutableFile(atPath: $0) },
            "build the SharedTaskBoard product first (swift build --build-tests builds it)"
        )
        async let alice = exitStatus(of: [example, "alice", "bob", "20"])
        async let bob = exitStatus(of: [example, "bob", "alice", "20"])
        let statuses = await [alice, bob]
        #expect(statuses == [0, 0])
    }
}
