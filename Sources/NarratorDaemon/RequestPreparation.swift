import Dispatch
import NarratorBase
import NarratorCore
import NarratorModel
import NarratorProtocol
import NarratorSpeech
import NarratorSystem
import Synchronization

/// Large request lines prepared on a thread of their own (checked to be UTF-8, decoded, a
/// `register`'s tree compiled: ``PreparedRequest``), so that nobody waits behind them on the
/// loop: registering a 100,000-element tree takes a fifth of a second, which every other client,
/// a screen reader's key echo among them, would otherwise wait through. A client's later input
/// waits behind its own line until that comes back, so each client is answered in the order it
/// sent its requests; other clients do not wait.
///
/// It lives on the loop thread, with the driver; only the pure preparing, and freeing what the
/// session let go of, run on the worker thread, which yields to speech and the loop (on two
/// cores, decoding at their priority took the CPU from them: SPEAK to 701 at p99 doubled).
final class RequestPreparation {
    /// Lines at least this long (bytes) are prepared off the loop (the loop hands them over as
    /// `ClientInput.largeLine`): decoding one takes about a millisecond, against some 50 µs for
    /// handing it over and back.
    static let threshold = 64 << 10

    /// What a client sent behind a line being prepared, in order.
    enum Held {
        case line(String)
        case largeLine(LargeLine)
        /// Anything else that must not overtake the line: a refused line, the connection gone.
        case input(SessionInput)
    }

    private let worker = WorkerThread<Void>(name: "narrator.prepare") {
        try? Syscall.setCurrentThreadNiceness(10)
    }
    /// Counts what was handed to the worker, so that memory is given back once none came for a while.
    private let handedOut = HandOuts()
    private let requests: RequestDecoder
    private let documents: TreeDocumentDecoder
    private let inbox: LoopInbox<DaemonMessage>
    /// The clients with a line out being prepared, and what each sent after it (the core's rule).
    private var held = InputOrder<Held>()
    /// Set at shutdown: large lines are decoded on the loop from then on, so that nothing is
    /// handed out after the last line the loop waits for.
    private var stopping = false

    /// - Parameter documents: the session's own (`Workspace.decoder`), so that the limits are the same.
    init(requests: RequestDecoder, documents: TreeDocumentDecoder, inbox: LoopInbox<DaemonMessage>) {
        self.requests = requests
        self.documents = documents
        self.inbox = inbox
    }

    /// Prepares a large line off the loop (its result comes back as `DaemonMessage.prepared`),
    /// or holds it behind the client's line being prepared; false when stopping and nothing is
    /// held: the loop decodes it then (``input(decoding:from:decoder:)``).
    func take(_ line: consuming LargeLine, from client: ClientID) -> Bool {
        if held.hold(.largeLine(line), from: client) { return true }
        guard !stopping else { return false }
        held.outstanding(client)
        prepare(line, from: client)
        return true
    }

    /// A large line decoded on the calling thread: the same replies as prepared off it.
    static func input(decoding line: LargeLine, from client: ClientID, decoder: RequestDecoder) -> SessionInput {
        guard let text = String(validating: line.joined(), as: UTF8.self) else { return .rejectedLine(client, .invalidUTF8) }
        return .request(client, decoder.decode(text))
    }

    /// Applies an update to a copy of its large tree off the loop (``PreparedUpdate``; it comes
    /// back as `DaemonMessage.prepared`); what the client sends after it waits behind it. False
    /// when stopping or when the client has a line out: the caller applies it, or holds it.
    func prepare(_ request: Request, tree: consuming AccessibilityTree, revision: UInt64, from client: ClientID) -> Bool {
        guard !stopping, !held.isWaiting(client) else { return false }
        held.outstanding(client)
        let (documents, inbox) = (documents, inbox)
        // Emptied by the job, so that the worker's hold on the workspace's storage ends once
        // the update has copied what it writes to.
        let parcel = Parcel(tree)
        worker.submit { _ in
            guard let tree = parcel.take() else { return }
            let prepared = PreparedUpdate(request: request, tree: tree, revision: revision, decoder: documents)
            inbox.post(.prepared(client, .prepared(client, .update(prepared))))
        }
        return true
    }

    /// Holds `input` behind `client`'s line being prepared; false when none is, and it can be fed now.
    func hold(_ input: Held, from client: ClientID) -> Bool {
        held.hold(input, from: client)
    }

    /// `client`'s prepared line came back: what it sent after it, in order, to be taken as if
    /// it came now (``hold(_:from:)`` first: one of them may go to be prepared, and the rest then
    /// waits behind it).
    func finished(_ client: ClientID) -> [Held] {
        held.done(client)
    }

    /// At shutdown: runs `body` (from the worker) once every line handed out so far has come back
    /// to the loop, and hands out no more.
    func stop(then body: @escaping @Sendable () -> Void) {
        stopping = true
        worker.submit { _ in body() }
    }

    /// The tree that `input`, a prepared `register` or `update`, would replace: the driver lets
    /// go of it with ``release(_:)`` once the session has, so that freeing it (milliseconds for
    /// 100,000 nodes) happens on the worker, not on the loop. Not a tree the session will change
    /// in place (an update prepared from an older revision): holding it would make that copy it.
    func replacedTree(by input: SessionInput, in workspace: Workspace) -> AccessibilityTree? {
        switch input {
        case .prepared(_, .register(_, .success(let tree), _, _)):
            return workspace.trees[tree.name]
        case .prepared(_, .update(let prepared)):
            guard case .update(let name, _, _, _) = prepared.request.command, let result = prepared.result,
                result.revision == workspace.revision(of: name)
            else { return nil }
            return workspace.trees[name]
        default:
            return nil
        }
    }

    /// Frees `tree` on the worker, if this holds its last reference.
    func release(_ tree: consuming AccessibilityTree?) {
        guard let tree else { return }
        let parcel = Parcel(tree)
        worker.submit { _ in _ = parcel.take() }
        releaseMemoryWhenQuiet()
    }

    /// How long nothing large is to have come before freed memory is given back.
    static let quietBeforeRelease: Duration = .milliseconds(500)

    /// Gives freed heap memory back to the system off the loop (after a large line, or a large
    /// tree freed), once nothing else large has come for ``quietBeforeRelease``. Given back after
    /// every line, its pages were faulted in again by the loop reading the next one: 65,000 page
    /// faults a second on the loop thread while a client registered a 100k-element tree in a loop.
    func releaseMemoryWhenQuiet() {
        let (worker, handedOut) = (worker, handedOut)
        worker.submit { _ in
            let mine = handedOut.count.add(1, ordering: .relaxed).newValue
            DispatchQueue.global().async(after: Self.quietBeforeRelease) {
                worker.submit { _ in
                    if handedOut.count.load(ordering: .relaxed) == mine { Syscall.releaseFreedMemory() }
                }
            }
        }
    }

    private func prepare(_ line: consuming LargeLine, from client: ClientID) {
        let (requests, documents, inbox) = (requests, documents, inbox)
        // Handed over in a parcel the job empties, so that the line is freed as soon as it is
        // decoded rather than when the job ends.
        let parcel = Parcel(line)
        worker.submit { _ in
            guard var bytes = parcel.take()?.joined() else { return }
            let input: SessionInput
            if let text = String(validating: bytes, as: UTF8.self) {
                bytes = []
                input = .prepared(client, PreparedRequest(line: text, requests: requests, documents: documents))
            } else {
                input = .rejectedLine(client, .invalidUTF8)
            }
            inbox.post(.prepared(client, input))
        }
        // The line's bytes and the document's transient values are freed by then, scattered through the heap.
        releaseMemoryWhenQuiet()
    }
}

/// A value handed to another thread and taken out there once.
private final class Parcel<Value: Sendable>: Sendable {
    private let value: Mutex<Value?>

    init(_ value: consuming Value) { self.value = Mutex(value) }

    func take() -> Value? { value.withLock { $0.take() } }
}

/// A count shared with the worker's jobs.
private final class HandOuts: Sendable {
    let count = Atomic<UInt64>(0)
}
