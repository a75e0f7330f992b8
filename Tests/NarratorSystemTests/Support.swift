import Dispatch
import Foundation
import Glibc
import NarratorBase
@testable import NarratorSystem
import Synchronization

/// A fresh directory under /tmp (short paths: Unix sockets allow 107 bytes), removed on deinit.
final class TemporaryDirectory: Sendable {
    let path: String

    init(mode: mode_t = 0o700) throws {
        var template = Array("/tmp/nsys-XXXXXX".utf8CString)
        guard let result = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Errno.current("mkdtemp")
        }
        path = String(cString: result)
        try Syscall.chmod(path, mode: mode)
    }

    func file(_ name: String) -> String { path + "/" + name }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Events recorded from the loop thread and awaited by the test thread (generous waits, no
/// timing assertions: a wait only bounds how long a broken build can hang the suite).
final class Recorder<Event: Sendable>: Sendable {
    private let events = Mutex<[Event]>([])
    private let arrivals = DispatchSemaphore(value: 0)

    func record(_ event: Event) {
        events.withLock { $0.append(event) }
        arrivals.signal()
    }

    var all: [Event] { events.withLock { $0 } }

    /// Waits until `condition` holds for the recorded events; false after 60 seconds.
    @discardableResult
    func wait(until condition: ([Event]) -> Bool) -> Bool {
        let deadline = DispatchTime.now() + .seconds(60)
        while true {
            if events.withLock({ condition($0) }) { return true }
            if arrivals.wait(timeout: deadline) == .timedOut { return events.withLock { condition($0) } }
        }
    }
}

/// What a `TestHandler` saw, in order.
enum Observed: Sendable, Equatable {
    case accepted(ClientID, PeerCredentials)
    case input(ClientID, ClientInput)
    case disconnected(ClientID, DisconnectReason)
    case signal(LoopSignal)
    case log(LoopLogEvent)
    /// `batchEnded` (recorded only by a handler asked to).
    case batchEnded
}

/// Who a `TestHandler` serves.
enum AdmissionRule {
    case everyone
    /// As the daemon's session does: its own user and root are served; anyone else is sent the
    /// reason and closed from `accept`.
    case ownerOrRoot

    /// The line that refuses `peer`, nil when it is served.
    func refusal(_ peer: PeerCredentials) -> String? {
        switch self {
        case .everyone:
            return nil
        case .ownerOrRoot:
            return peer.uid == getuid() || peer.uid == 0 ? nil : #"{"error":"permission denied: uid \#(peer.uid) is not the daemon's user"}"#
        }
    }
}

/// A handler whose reaction to each line is supplied by the test; it records everything.
final class TestHandler: ConnectionHandler {
    typealias Reaction = (ClientInput, ClientID, any ConnectionLoop<Never>) -> Void
    let recorder: Recorder<Observed>
    let admission: AdmissionRule
    let reaction: Reaction
    let batchReaction: ((any ConnectionLoop<Never>) -> Void)?

    /// - Parameter batchEnded: also records `batchEnded` and runs this then.
    init(
        recorder: Recorder<Observed>,
        admission: AdmissionRule = .everyone,
        reaction: @escaping Reaction = { input, client, loop in
            if case .line(let text) = input { loop.send(text, to: client) }
        },
        batchEnded: ((any ConnectionLoop<Never>) -> Void)? = nil
    ) {
        self.recorder = recorder
        self.admission = admission
        self.reaction = reaction
        batchReaction = batchEnded
    }

    func batchEnded(loop: any ConnectionLoop<Never>) {
        guard let batchReaction else { return }
        recorder.record(.batchEnded)
        batchReaction(loop)
    }

    func accept(_ client: ClientID, peer: PeerCredentials, loop: any ConnectionLoop<Never>) {
        recorder.record(.accepted(client, peer))
        if let refusal = admission.refusal(peer) {
            loop.send(refusal, to: client)
            loop.close(client)
        }
    }

    func receive(_ input: ClientInput, from client: ClientID, loop: any ConnectionLoop<Never>) {
        recorder.record(.input(client, input))
        reaction(input, client, loop)
    }

    func disconnected(_ client: ClientID, reason: DisconnectReason, loop: any ConnectionLoop<Never>) {
        recorder.record(.disconnected(client, reason))
    }

    func signal(_ signal: LoopSignal, loop: any ConnectionLoop<Never>) {
        recorder.record(.signal(signal))
        if signal == .terminate { loop.shutdown() }
    }

    func log(_ event: LoopLogEvent) {
        recorder.record(.log(event))
    }
}

/// A loop serving a socket in a temporary directory on its own thread.
struct RunningServer: Sendable {
    let directory: TemporaryDirectory
    let path: String
    let inbox: LoopInbox<Never>
    let thread: JoinableThread
    let recorder: Recorder<Observed>

    init(
        configuration: PollLoopConfiguration = PollLoopConfiguration(),
        directoryMode: mode_t = 0o700,
        makeHandler: @escaping @Sendable (Recorder<Observed>) -> TestHandler = { TestHandler(recorder: $0) }
    ) throws {
        directory = try TemporaryDirectory(mode: directoryMode)
        path = directory.file("s.sock")
        let listener = try SocketPath(path: path, origin: .flag).bindListener(uid: getuid())
        let inbox = try LoopInbox<Never>()
        let recorder = Recorder<Observed>()
        self.inbox = inbox
        self.recorder = recorder
        thread = JoinableThread {
            try? PollLoop.run(listeners: [listener.fd], configuration: configuration, inbox: inbox, handler: makeHandler(recorder))
        }
    }

    func connect() throws -> UnixClient {
        try UnixClient(connectingTo: path)
    }

    /// Graceful shutdown, then waits for the loop thread to end.
    func stop() {
        inbox.shutdown()
        thread.join()
    }
}

extension UnixClient {
    /// readLine with a generous timeout, so a broken loop fails the test instead of hanging it.
    func line() throws -> String? {
        try readLine(timeout: .seconds(60))
    }
}
