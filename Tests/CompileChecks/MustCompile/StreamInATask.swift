// A stream made on the main actor, then iterated by a task it starts, misses nothing sent in
// between: the stream is Sendable, so the task captures it, with no unsafe annotations.
import Messaging

final class Chat: ObservableSource, Sendable {
    let messenger = Messenger<String>()
    let unread = Var(0)
}

@MainActor
func showMessages(of chat: Chat) {
    let s = chat.makeMessageStream()
    Task {
        for await x in s {
            print(x)
        }
    }
    chat.send("sent before the task runs, received all the same")
}

@MainActor
final class Transcript {
    private(set) var lines: [String] = []
    private(set) var unread = 0
    private var tasks: [Task<Void, Never>] = []

    func follow(_ chat: Chat) {
        let incoming = chat.makeMessageStream(bufferingPolicy: .oldest(100))
        tasks.append(
            Task {
                for await line in incoming {
                    lines.append(line)  // main-actor state, on the main actor
                }
            }
        )
        let unreadCounts = chat.unread.makeValueStream(bufferingPolicy: .newest(1))
        tasks.append(
            Task {
                for await count in unreadCounts {
                    unread = count
                }
            }
        )
        chat.send("Hello")
        chat.unread.value += 1
    }

    func stop() {
        for task in tasks { task.cancel() }
    }
}

actor Archive {
    private var lines: [String] = []

    func keep(_ stream: MessageStream<String>) async {
        for await line in stream {
            lines.append(line)
        }
    }
}

@MainActor
func run() async {
    let chat = Chat()
    showMessages(of: chat)
    let transcript = Transcript()
    transcript.follow(chat)
    let archive = Archive()
    let stream = chat.makeMessageStream()
    let archiving = Task.detached { await archive.keep(stream) }
    chat.send("Bye")
    chat.stopBeingObserved()
    await archiving.value
    transcript.stop()
    print(transcript.lines, transcript.unread)
}
