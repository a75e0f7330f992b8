import Foundation
import NarratorCore
import NarratorSpeech
import NarratorSystem

/// The daemon's state and its answer to every request. It lives on the event loop thread and
/// is the single owner of the workspace (trees and focus), the clients and the tree owners.
final class Daemon: ConnectionHandler {
    var logger: Logger
    /// Re-reads the configuration (SIGHUP); set by `DaemonMain`.
    var reload: (() -> Void)?
    let speech: SpeechService
    let uid: uid_t
    let started = Date()
    let socketPath: String?
    var workspace = Workspace()
    var clients: [ClientID: ClientState] = [:]
    /// The connection that registered each tree, while it is connected.
    var owners: [String: ClientID] = [:]
    /// Trees removed when their owner disconnects.
    var ephemeral: Set<String> = []
    /// What each recent utterance was about, for speech events to subscribers.
    var spoken: [UtteranceID: SpokenItem] = [:]
    let decoder: RequestDecoder
    /// The announcement queue and the utterance log.
    let desk: AnnouncementDesk

    struct SpokenItem {
        var kind: SpeechKind
        var text: String
        var tree: String?
        var element: String?
    }

    let limits: DaemonLimits

    init(logger: Logger, speech: SpeechService, desk: AnnouncementDesk, uid: uid_t, socketPath: String?, limits: DaemonLimits) {
        self.desk = desk
        self.limits = limits
        self.workspace = Workspace(decoder: TreeDocumentDecoder(limits: limits.document))
        self.logger = logger
        self.speech = speech
        self.uid = uid
        self.socketPath = socketPath
        self.decoder = RequestDecoder(parser: limits.document.parser)
    }

    // MARK: Connections

    func accept(_ client: ClientID, peer: PeerCredentials, loop: LoopContext) -> Admission {
        guard peer.uid == uid || peer.uid == 0 else {
            logger.warning("refused \(client): uid \(peer.uid) (pid \(peer.pid)) is not the daemon's user (uid \(uid))")
            let error = CommandError(
                code: "permission_denied",
                message: "narratord serves only its own user (uid \(uid)) and root; you are uid \(peer.uid)")
            return .refuse(finalLine: reply(id: nil, error: error).compactText)
        }
        clients[client] = ClientState(id: client, peer: peer)
        logger.debug("\(client) connected (pid \(peer.pid))")
        return .accept
    }

    func receive(_ input: ClientInput, from client: ClientID, loop: LoopContext) {
        switch input {
        case .line(let line):
            let answer: JSONValue
            switch decoder.decode(line) {
            case .failure(let failure):
                answer = reply(id: failure.id, error: CommandError(failure.error))
            case .success(let request):
                // The command is handed over, not borrowed: a register request's JSON then
                // lives only until its document is decoded.
                let id = request.id
                let command = (consume request).command
                do {
                    answer = reply(id: id, members: try handle(command, from: client, loop: loop))
                } catch {
                    answer = reply(id: id, error: error)
                }
                // An announcement is acknowledged once its log row is committed.
                if desk.sendAfterCommit(answer, to: client, loop: loop) { return }
            }
            _ = loop.send(answer.compactText, to: client)
        case .lineTooLong(let limit):
            let error = CommandError(code: "message_too_long", message: "request longer than \(limit) bytes; it was discarded")
            _ = loop.send(reply(id: nil, error: error).compactText, to: client)
        case .invalidUTF8:
            let error = CommandError(code: "invalid_utf8", message: "request is not valid UTF-8; it was discarded")
            _ = loop.send(reply(id: nil, error: error).compactText, to: client)
        }
    }

    func disconnected(_ client: ClientID, reason: DisconnectReason, loop: LoopContext) {
        guard let state = clients.removeValue(forKey: client) else { return }
        logger.debug("\(client) disconnected: \(reason)")
        for tree in state.ownedTrees where owners[tree] == client {
            owners[tree] = nil
            if ephemeral.contains(tree) {
                try? workspace.unregister(tree)
                ephemeral.remove(tree)
                logger.info("unregistered ephemeral tree \"\(tree)\": its owner \(state.label) disconnected")
            }
        }
    }

    func signal(_ signal: LoopSignal, loop: LoopContext) {
        switch signal {
        case .terminate, .interrupt:
            logger.notice("received \(signal), stopping: finishing replies to \(clients.count) client(s)")
            // Final outcomes for what is still open, and every row committed: the replies that
            // waited for a commit are now queued on the loop, ahead of the shutdown queued after
            // them, so each request read so far is answered before the connections close.
            desk.shutDown(daemon: self, loop: loop)
            speech.stop()
            loop.eventLoop.shutdown()
        case .hangup:
            logger.notice("received SIGHUP, reloading the configuration")
            reload?()
        }
    }

    func log(_ event: LoopLogEvent) {
        switch event {
        case .disconnected(_, _, .outputOverflow), .refused, .acceptFailed, .peerCredentialsUnavailable:
            logger.warning("\(event)")
        default:
            logger.debug("\(event)")
        }
    }

    // MARK: Speech events

    /// Runs on the loop thread for every speech event: streams it to subscribers.
    func speechEvent(_ event: SpeechEvent, loop: LoopContext) {
        let item = spoken[event.utterance]
        if event.isFinal { spoken[event.utterance] = nil }
        desk.speechEvent(event, item: item, daemon: self, loop: loop)
        let subscribers = clients.values.filter(\.subscribed)
        guard !subscribers.isEmpty else { return }
        var object = JSONObject([
            "event": "speech", "phase": .string(Self.phaseName(event.phase)), "kind": .string(event.kind.name),
            "utterance": .number(Double(event.utterance.rawValue)), "at": .number(Double(event.at.nanoseconds) / 1e9),
        ])
        if let item {
            object["text"] = .string(item.text)
            object["tree"] = .optional(item.tree)
            object["element"] = .optional(item.element)
        }
        if case .interrupted(let by) = event.phase, let by { object["by"] = .number(Double(by.rawValue)) }
        if case .dropped(let reason) = event.phase { object["reason"] = .string(reason.rawValue) }
        let line = JSONValue.object(object).compactText
        for subscriber in subscribers { _ = loop.send(line, to: subscriber.id) }
    }

    static func phaseName(_ phase: SpeechEvent.Phase) -> String {
        switch phase {
        case .queued: "queued"
        case .started: "started"
        case .finished: "finished"
        case .interrupted: "interrupted"
        case .dropped: "dropped"
        }
    }

    /// Asks speech to say something and remembers what it was about.
    @discardableResult
    func say(_ text: String, _ kind: SpeechKind, tree: String?, element: String?) -> UtteranceID {
        let language = tree.flatMap { workspace.trees[$0]?.language }
        let id = speech.say(text, kind: kind, language: language)
        spoken[id] = SpokenItem(kind: kind, text: text, tree: tree, element: element)
        if spoken.count > 10_000 { spoken.removeAll() }
        return id
    }

    // MARK: Replies

    func reply(id: JSONValue?, members: [JSONObject.Member]) -> JSONValue {
        var object = JSONObject()
        object.members.append(.init(key: "id", value: id ?? .null))
        object.members.append(.init(key: "ok", value: true))
        object.members.append(contentsOf: members)
        return .object(object)
    }

    func reply(id: JSONValue?, error: any Error) -> JSONValue {
        let commandError: CommandError
        switch error {
        case let e as CommandError: commandError = e
        case let e as NarratorError: commandError = CommandError(e)
        case let e as ProtocolError: commandError = CommandError(e)
        default: commandError = CommandError(code: "internal", message: "\(error)")
        }
        return .object(JSONObject(["id": id ?? .null, "ok": false, "error": commandError.json]))
    }
}
