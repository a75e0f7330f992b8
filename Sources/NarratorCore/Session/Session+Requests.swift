import NarratorBase
import NarratorEngines
import NarratorModel
import NarratorProtocol

/// Each request command, carried out on the session's state: the one place that says what every
/// `cmd` does (the concept of each lives in the extension named after it).
extension Session {
    /// Answers a request, now or (for `announce` and `set`) once its row or file is written.
    /// `prepared`: an `update` already applied to a copy of its tree off the loop (``PreparedUpdate``).
    mutating func respond(to request: consuming Request, from client: ClientID, prepared: PreparedUpdate.Result? = nil) {
        let id = request.id
        // The command is handed over, not borrowed: a register request's JSON then lives only
        // until its document is decoded.
        let command = (consume request).command
        do throws(ReplyError) {
            if let body = try carryOut(command, id: id, from: client, prepared: prepared) {
                send(client, Reply(id: id, .success(body)))
            }
        } catch {
            send(client, Reply(id: id, .failure(error)))
        }
    }

    /// Answers a request prepared before it reached the session (``PreparedRequest``): a
    /// `register` has its tree compiled already.
    mutating func respond(to prepared: consuming PreparedRequest, from client: ClientID) {
        switch consume prepared {
        case .decoded(.success(let request)):
            respond(to: request, from: client)
        case .decoded(.failure(let failure)):
            send(client, Reply(id: failure.id, .failure(ReplyError(failure.error))))
        case .register(let id, let compiled, let isEphemeral, let focusEvents):
            do throws(ReplyError) {
                let report = try register(try compiled.get(), ephemeral: isEphemeral, focusEvents: focusEvents, from: client)
                send(client, Reply(id: id, .success(.registered(report))))
            } catch {
                send(client, Reply(id: id, .failure(error)))
            }
        case .update(let prepared):
            respond(to: prepared.request, from: client, prepared: prepared.result)
        case .refused(let problem):
            rejected(problem, from: client)
        }
    }

    /// The reply's body, or nil when the reply waits for a write to finish.
    private mutating func carryOut(
        _ command: consuming RequestCommand, id: JSONValue?, from client: ClientID, prepared: PreparedUpdate.Result?
    ) throws(ReplyError) -> ReplyBody? {
        switch consume command {
        case .hello(let name):
            if let name { clients.name(client, name) }
            return .hello(protocol: NarratorVersion.protocolVersion, daemon: NarratorVersion.daemon, client: client)
        case .register(let document, let isEphemeral, let focusEvents):
            let tree = try PreparedRequest.compile(document, decoder: workspace.decoder)
            return .registered(try register(tree, ephemeral: isEphemeral, focusEvents: focusEvents, from: client))
        case .update(let tree, let update, let announce, let notify):
            return .updated(try self.update(tree: tree, update, announce: announce, notify: notify, prepared: prepared))
        case .unregister(let tree):
            try unregister(tree)
            return .unregistered(tree: tree)
        case .trees:
            return .trees(treeSummaries())
        case .show(let tree):
            return .stops(tree: tree, try narrator { (w) throws(NarratorError) in try w.stops(of: tree) })
        case .export(let tree):
            return .exported(tree: tree, document: TreeDocumentEncoder.json(try narrator { (w) throws(NarratorError) in try w.tree(tree) }.document))
        case .focus(let tree, let element, let saying):
            let outcome = try moving { (w) throws(NarratorError) in try w.focus(tree: tree, element: element, saying: saying) }
            return .focus(tellOwner(speakFocus(outcome), movedBy: client))
        case .move(let move, let tree):
            return .focus(tellOwner(speakFocus(try moving { (w) throws(NarratorError) in try w.move(move, tree: tree) }), movedBy: client))
        case .touch(let x, let y, let tree):
            return .focus(tellOwner(speakFocus(try moving { (w) throws(NarratorError) in try w.touch(x: x, y: y, tree: tree) }), movedBy: client))
        case .activate:
            return .delivered(try deliver(try moving { (w) throws(NarratorError) in try w.activate() }))
        case .adjust(let direction):
            return try adjust(direction)
        case .actions:
            return .actions(try narrator { (w) throws(NarratorError) in try w.actions() })
        case .action(let name):
            return .delivered(try deliver(try narrator { (w) throws(NarratorError) in try w.perform(action: name) }))
        case .magicTap:
            return .delivered(try deliver(try narrator { (w) throws(NarratorError) in try w.route(.magicTap) }))
        case .escape:
            return .delivered(try deliver(try narrator { (w) throws(NarratorError) in try w.route(.escape) }))
        case .rotors:
            return .rotors(try narrator { (w) throws(NarratorError) in try w.rotors() })
        case .rotor(let name, let direction, let within):
            let body = try turnRotor(name, direction, within: within)
            if case .focus(let report) = body { _ = tellOwner(report, movedBy: client) }
            return body
        case .cell(let direction):
            return .focus(tellOwner(moveInTable(direction, try moving { (w) throws(NarratorError) in try w.moveInTable(direction) }), movedBy: client))
        case .announce(let text, let priority, let tree, let element, let key, let language):
            try announce(text: text, priority: priority, tree: tree, element: element, key: key, language: language, id: id, from: client)
            return nil
        case .speak(let text, let language):
            try checkTextLength(text, field: "speak.text")
            try checkLanguage(language, field: "speak.language")
            let utterance = say(text, .speak, tree: nil, element: nil, language: language ?? focusedLanguage)
            return .spoke(text: text, utterance: utterance)
        case .stop:
            logCommand("stop", from: client)
            follow(plan.stop(at: batch.now))
            return .stopped
        case .status:
            return .status(status)
        case .set(let key, let value):
            let text: String
            switch value {
            case .string(let s): text = s
            case .number(let n): text = JSONWriter.format(n)
            case .bool(let b): text = b ? "on" : "off"
            default: throw ReplyError(.invalidField, "set.value: expected a string, number or boolean")
            }
            try changeSetting(key, to: text, replyingTo: client, id: id)
            return nil
        case .get(let key):
            do {
                return .setting(key: key, value: try speech.settings.get(key))
            } catch {
                throw ReplyError(.invalidSetting, "\(error)")
            }
        case .voices(let query):
            return .voices(configuration.engines.listing(query, variants: configuration.variants))
        case .subscribe:
            clients.subscribe(client)
            return .subscribed
        }
    }

    /// Reads the workspace, turning its errors into the reply's.
    func narrator<T>(_ body: (Workspace) throws(NarratorError) -> T) throws(ReplyError) -> T {
        do throws(NarratorError) { return try body(workspace) } catch { throw ReplyError(error) }
    }

    /// Changes the workspace (a focus move, an activation), turning its errors into the reply's.
    mutating func moving<T>(_ body: (inout Workspace) throws(NarratorError) -> T) throws(ReplyError) -> T {
        do throws(NarratorError) { return try body(&workspace) } catch { throw ReplyError(error) }
    }

    /// Refuses a language no installed voice speaks: it would be read by another language's voice.
    func checkLanguage(_ language: String?, field: String) throws(ReplyError) {
        guard let language, InstalledVoice.choice(for: language, in: configuration.voices) == nil else { return }
        throw ReplyError(.invalidField, "\(field): no installed voice speaks \"\(language)\" (narratorctl voices lists the languages)")
    }

    /// Refuses a text longer than `--max-text` characters, whole: none of it is spoken.
    func checkTextLength(_ text: String, field: String) throws(ReplyError) {
        let count = text.count
        let limit = configuration.limits.textLength
        guard count <= limit else {
            throw ReplyError(
                .limitExceeded, "\(field): \(count) characters, over the limit of \(limit) (--max-text); the text was refused and nothing was spoken")
        }
    }
}
