import Dispatch
import NarratorBase
import NarratorCore
import NarratorModel
import NarratorProtocol
import NarratorSpeech
import NarratorSystem
import Synchronization

/// Large request lines prepared on a thread of their own (checked to be UTF-8, decoded, a
/// `register`'s tree compiled: ``PreparedRequest``), and updates applied to a copy of a large
/// tree (``PreparedUpdate``), so that nobody waits behind them on the loop: registering a
/// 100,000-element tree takes a fifth of a second, which every other client, a screen reader's
/// key echo among them, would otherwise wait through. The session decides what is prepared and
/// what waits behind it (`SessionEffect.prepare`, `.prepareUpdate`); this only prepares what it
/// is told to and posts the result back. It holds nothing and decides nothing.
///
/// It lives on the loop thread, with the driver; only the pure preparing, and freeing what the
/// session let go of, run on the worker thread, which yields to speech and the loop (on two
/// cores, decoding at their priority took the CPU from them: SPEAK to 701 at p99 doubled).
final class RequestPreparation {
    /// Lines at least this long (bytes) are prepared off the loop (the loop hands them over as
    /// `ClientInput.largeLine`): decoding one takes about a millisecond, against some 50 µs for
    /// handing it over and back.
    static let threshold = 64 << 10

    private let worker = WorkerThread<Void>(name: "narrator.prepare") {
        try? Syscall.setCurrentThreadNiceness(10)
    }
    /// Counts what was handed to the worker, so that memory is given back once none came for a while.
    private let handedOut = HandOuts()
    private let requests: RequestDecoder
    private let documents: TreeDocumentDecoder
    private let inbox: LoopInbox<DaemonMessage>

    /// - Parameter documents: the session's own (`Workspace.decoder`), so that the limits are the same.
    init(requests: RequestDecoder, documents: TreeDocumentDecoder, inbox: LoopInbox<DaemonMessage>) {
        self.requests = requests
        self.documents = documents
        self.inbox = inbox
    }

    /// Applies an update to a copy of its large tree off the loop (``PreparedUpdate``); it comes
    /// back as `DaemonMessage.prepared`.
    func prepare(_ update: UpdateToPrepare, from client: ClientID) {
        let (documents, inbox, request, revision) = (documents, inbox, update.request, update.revision)
        // Emptied by the job, so that the worker's hold on the workspace's storage ends once
        // the update has copied what it writes to.
        let parcel = Parcel(update.tree)
        worker.submit { _ in
            guard let tree = parcel.take() else { return }
            let prepared = PreparedUpdate(request: request, tree: tree, revision: revision, decoder: documents)
            inbox.post(.prepared(client, .update(prepared)))
        }
    }

    /// At shutdown: runs `body` (from the worker) once every line handed out so far has come back
    /// to the loop (the session hands out none once it is shutting down).
    func stop(then body: @escaping @Sendable () -> Void) {
        worker.submit { _ in body() }
    }

    /// The tree that `prepared`, a `register` or an `update`, would replace: the driver lets
    /// go of it with ``release(_:)`` once the session has, so that freeing it (milliseconds for
    /// 100,000 nodes) happens on the worker, not on the loop. Not a tree the session will change
    /// in place (an update prepared from an older revision): holding it would make that copy it.
    func replacedTree(by prepared: PreparedRequest, in workspace: Workspace) -> AccessibilityTree? {
        switch prepared {
        case .register(_, .success(let tree), _, _):
            return workspace.trees[tree.name]
        case .update(let prepared):
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

    /// Prepares a large line off the loop; its result comes back as `DaemonMessage.prepared`.
    func prepare(_ line: consuming LargeLine, from client: ClientID) {
        let (requests, documents, inbox) = (requests, documents, inbox)
        // Handed over in a parcel the job empties, so that the line is freed as soon as it is
        // decoded rather than when the job ends.
        let parcel = Parcel(line)
        worker.submit { _ in
            guard var bytes = parcel.take()?.joined() else { return }
            let prepared: PreparedRequest
            if let text = String(validating: bytes, as: UTF8.self) {
                bytes = []
                prepared = PreparedRequest(line: text, requests: requests, documents: documents)
            } else {
                prepared = .refused(.invalidUTF8)
            }
            inbox.post(.prepared(client, prepared))
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
