import NarratorModel
import NarratorProtocol

/// narratord's side: its replies and owner events, decoded with the protocol's own types, and
/// the connection going and coming back.
extension ATSPIBridge {
    mutating func takeDaemonLine(_ line: String) {
        let json: JSONValue
        do {
            json = try JSONParser().parse(line)
        } catch {
            journal("narratord sent a line that is not JSON (\(error)): \(Self.excerpt(line))")
            return
        }
        if json["event"] != nil {
            takeDaemonEvent(json, line)
            return
        }
        guard let number = json["id"]?.numberValue, let purpose = inFlight.removeValue(forKey: Int(number)) else {
            journal("narratord sent a reply to no request of the bridge: \(Self.excerpt(line))")
            return
        }
        let reply: Reply
        do {
            reply = try Reply(json: json, answering: purpose.command)
        } catch {
            journal("cannot read narratord's reply to \(purpose) (\(error.message)): \(Self.excerpt(line))")
            return
        }
        if case .success(.focus(let report)) = reply.outcome {
            narratorFocus = report.focus
            // The application moved its focus (Tab into a field): browse mode's cursor is not there.
            if case .focus = purpose {
                browsedTo = nil
                focusModeFollows(report.focus)
            }
        }
        // An update that moved narratord's focus (repaired, or handed over to where the
        // application's focus went): the keys are judged where it is now.
        if case .success(.updated(let report)) = reply.outcome, let moved = report.focus {
            narratorFocus = moved.focus
        }
        if case .key(let what, _) = purpose {
            keyReplied(what, reply.outcome)
            return
        }
        guard case .failure(let error) = reply.outcome else { return }
        switch purpose {
        case .update(let tree, let generation):
            // Out of step with narratord: the window is registered again whole, and its
            // application read again so that the registration is what it shows now. Refusals of
            // the updates sent before that registration say nothing more.
            let decided = mirror.refused(tree: tree, generation: generation, registration: false)
            guard !decided.isEmpty else { return }
            journal("\(purpose) was refused (\(error.message)); registering the window again whole")
            carryOut(decided)
            if let window = mirror.trees.first(where: { $0.value == tree })?.key { read(window.application) }
        case .register(let tree, let generation):
            guard mirror.generation(of: tree) == generation else { return }
            _ = mirror.refused(tree: tree, generation: generation, registration: true)
            journal("\(purpose) was refused (\(error.message)); it is registered again when the window changes")
        default:
            journal("\(purpose) was refused: \(error.message)")
        }
    }

    private mutating func takeDaemonEvent(_ json: JSONValue, _ line: String) {
        let event: Event
        do {
            event = try Event(json: json)
        } catch {
            journal("cannot read narratord's event (\(error.message)): \(Self.excerpt(line))")
            return
        }
        switch event {
        case .action(let action):
            guard isThere(action.element, in: action.tree, toDo: action.action) else { return }
            let decided = mirror.ownerAction(tree: action.tree, element: action.element, action: action.action)
            if decided.isEmpty {
                journal("cannot \(action.action): \(ATSPIMapping.path(of: action.element)) in \(action.tree) offers no such action")
                cannotAdjust(action)
            }
            carryOut(decided)
        case .value(let change):
            guard isThere(change.element, in: change.tree, toDo: "set the value") else { return }
            carryOut(mirror.ownerValue(tree: change.tree, element: change.element, value: change.value))
        case .focus(let focus):
            narratorFocus = focus
            carryOut(mirror.ownerFocus(tree: focus.tree, element: focus.element))
        case .speech(let notice):
            // Subscribed for the repeat key: what was said last.
            heard(notice)
        }
    }

    /// A user's increment or decrement the application gives no way to carry out is said, not
    /// only journalled: the key that asked for it would otherwise be met by silence. The key
    /// lets a repeat of the same press replace one still waiting.
    private mutating func cannotAdjust(_ action: OwnerAction) {
        guard AdjustableValue.Direction.allCases.map(\.actionName).contains(action.action) else { return }
        send(
            .announce(tree: action.tree),
            .announce(text: PhraseTable.english[.cannotAdjust], priority: .high, tree: action.tree, element: action.element, key: "cannot adjust \(action.element)"))
    }

    /// Whether `element` of `tree` is in its window as last read: narratord may act on one the
    /// application has removed before the update saying so reached it. Not there, it is said in
    /// the journal and nothing is called in the application (a grab or a value set on an object
    /// that is gone, a named action dropped in silence).
    private mutating func isThere(_ element: String, in tree: String, toDo what: String) -> Bool {
        let path = ATSPIMapping.path(of: element)
        guard let window = mirror.trees.first(where: { $0.value == tree })?.key else {
            journal("cannot \(what): \(tree) is no longer mirrored")
            return false
        }
        guard applications[window.application]?.windows[window.path]?.contains(path: path) == true else {
            journal("cannot \(what): \(path) is no longer in \(window)")
            return false
        }
        return true
    }

    /// narratord went away: requests in flight are forgotten (their trees go with the
    /// connection), and it is looked for every second.
    mutating func daemonClosed() {
        guard daemonConnected else { return }
        daemonConnected = false
        inFlight = [:]
        journal("narratord closed the connection; trying \(configuration.socket) again every second")
        setTimer(.reconnect, after: configuration.reconnectDelay)
    }

    /// Back: hello again, and every window registered whole (nothing the mirror knows was lost).
    mutating func daemonBack() {
        guard !daemonConnected else { return }
        daemonConnected = true
        send(.hello, .hello(client: "narrator-atspi"))
        send(.subscribe, .subscribe)
        journal("narratord is back at \(configuration.socket); registering \(mirror.trees.count) window(s) again")
        carryOut(mirror.resendAll())
        // The new narratord has no focus: it goes where the application's is, as before.
        carryOut(mirror.focusAgain())
    }

    /// The start of a long line, for the journal.
    static func excerpt(_ line: String) -> String {
        line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}
