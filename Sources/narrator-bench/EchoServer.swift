import Glibc
import NarratorBase
import NarratorSystem

/// Echoes every line back to its sender: the raw Unix-socket round trip that the round-trip
/// benchmark compares the daemon's own round trip against, built from the same loop the daemon uses.
final class EchoHandler: ConnectionHandler {
    func accept(_ client: ClientID, peer: PeerCredentials, loop: any ConnectionLoop<Never>) {}

    func receive(_ input: ClientInput, from client: ClientID, loop: any ConnectionLoop<Never>) {
        switch input {
        case .line(let text): loop.send(text, to: client)
        case .lineTooLong(let limit): loop.send("line too long (limit \(limit) bytes)", to: client)
        case .invalidUTF8: loop.send("invalid UTF-8", to: client)
        case .largeLine(let line): loop.send(String(decoding: line.joined(), as: UTF8.self), to: client)
        }
    }

    func log(_ event: LoopLogEvent) {}
}

/// An `EchoHandler` on its own loop thread, listening at `path`.
final class EchoServer: Sendable {
    let path: String
    let inbox: LoopInbox<Never>
    private let thread: JoinableThread

    init(path: String) throws(SocketPathError) {
        let listener = try SocketPath(path: path, origin: .flag).bindListener(uid: getuid())
        do {
            inbox = try LoopInbox()
        } catch {
            try? Syscall.close(listener.fd)
            listener.removeSocketFile()
            throw .system(path, error)
        }
        self.path = path
        let inbox = self.inbox
        thread = JoinableThread { try? PollLoop.run(listeners: [listener.fd], inbox: inbox, handler: EchoHandler()) }
    }

    /// Shuts the loop down, waits for its thread and removes the socket file.
    func stop() {
        inbox.shutdown()
        thread.join()
        try? Syscall.unlink(path)
    }
}
