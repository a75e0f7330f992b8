import NarratorModel

/// One well-behaved load-test client: it registers its own tree, then loops through focus, next,
/// previous, touch, adjust, update and announce with one request in flight, and checks each reply
/// against what its own tree must say. Lives on one worker thread.
final class LoadClient {
    /// What the reply to the request in flight must be.
    enum Expectation {
        case registered
        /// A focus move in this client's tree to `stop` (`boundary`: it hit an end and stayed).
        case focus(stop: Int, boundary: Bool)
        case error(code: String)
        case adjusted
        case updated(note: String)
        case announced
    }

    static let decisions: Set<String> = [
        "speaking", "queued", "deferred", "spoken", "interrupted", "deduplicated", "throttled", "expired", "dropped", "cancelled",
    ]

    let tree: LoadTree
    let connection: LoadConnection
    private var random: UInt64
    private var nextID = 1
    private var inFlight: (id: Int, command: String, expectation: Expectation, sentAt: Double)?
    /// This tree's last focused stop (nobody else moves focus within it), nil before the first move.
    private var position: Int?
    private var level = 5.0
    private var note = "v0"
    private var step = 0
    private(set) var completed = 0
    private(set) var registered = false
    var latencies: [Double] = []
    var announceLatencies: [Double] = []
    var failures: [String] = []
    var isIdle: Bool { inFlight == nil }

    init(index: Int, path: String, ephemeral: Bool) throws {
        tree = LoadTree(client: index, ephemeral: ephemeral)
        connection = try LoadConnection(path: path)
        random = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 | 1
    }

    private func nextRandom(_ bound: Int) -> Int {
        random ^= random << 13
        random ^= random >> 7
        random ^= random << 17
        return Int(random % UInt64(bound))
    }

    /// Queues the next request (the first is the registration).
    func sendNext(now: Double) {
        guard inFlight == nil else { return }
        guard registered else {
            send("register", #""document": \#(tree.document), "ephemeral": \#(tree.ephemeral)"#, .registered, now: now)
            return
        }
        step += 1
        let t = #""tree": "\#(tree.name)""#
        switch step % 10 {
        case 0, 5:
            let stop = nextRandom(4)
            send("focus", #"\#(t), "element": "\#(LoadTree.stopIDs[stop])""#, .focus(stop: stop, boundary: false), now: now)
        case 1, 6:
            let current = position ?? -1
            let boundary = current == 3
            send("next", t, .focus(stop: boundary ? 3 : current + 1, boundary: boundary), now: now)
        case 2:
            guard let current = position else { return send("first", t, .focus(stop: 0, boundary: false), now: now) }
            let boundary = current == 0
            send("previous", t, .focus(stop: boundary ? 0 : current - 1, boundary: boundary), now: now)
        case 3:
            let stop = nextRandom(4)
            let point = LoadTree.point(inStop: stop)
            send("touch", #"\#(t), "x": \#(point.x), "y": \#(point.y)"#, .focus(stop: stop, boundary: false), now: now)
        case 4:
            // Focus is shared by every client, so the adjust may reach another client's tree.
            send("focus", #"\#(t), "element": "level""#, .focus(stop: 2, boundary: false), now: now)
        case 7:
            let direction = level >= LoadTree.levelRange.upperBound ? "down" : level <= LoadTree.levelRange.lowerBound ? "up" : (nextRandom(2) == 0 ? "up" : "down")
            send("adjust", #""direction": "\#(direction)""#, .adjusted, now: now)
        case 8:
            let value = "v\(step)"
            send("update", #"\#(t), "element": "note", "set": {"value": "\#(value)"}"#, .updated(note: value), now: now)
        default:
            switch nextRandom(8) {
            case 0:
                send("focus", #"\#(t), "element": "missing""#, .error(code: "unknown_element"), now: now)
            case 1:
                let gap = LoadTree.gap(beforeStop: nextRandom(3) + 1)
                send("touch", #"\#(t), "x": \#(gap.x), "y": \#(gap.y)"#, .error(code: "no_target"), now: now)
            default:
                send("announce", #""text": "\#(tree.name) says \#(step)", "priority": "low", "tree": "\#(tree.name)""#, .announced, now: now)
            }
        }
    }

    private func send(_ command: String, _ fields: String, _ expectation: Expectation, now: Double) {
        let id = nextID
        nextID += 1
        connection.queue(#"{"id": \#(id), "cmd": "\#(command)", \#(fields)}"#)
        inFlight = (id, command, expectation, now)
    }

    /// Handles one line from the daemon: an event for this client's tree, or the reply in flight.
    func receive(_ line: String, now: Double) {
        guard case .object(let object)? = try? JSONParser().parse(line) else {
            return fail("not a JSON object: \(line.prefix(200))")
        }
        if let event = object["event"]?.stringValue {
            return receive(event: event, object, line: line)
        }
        guard let request = inFlight else { return fail("a reply with no request in flight: \(line.prefix(200))") }
        guard object["id"]?.numberValue == Double(request.id) else {
            return fail("reply id \(object["id"].map { "\($0)" } ?? "none") for request \(request.id): \(line.prefix(200))")
        }
        inFlight = nil
        let elapsed = now - request.sentAt
        if case .announced = request.expectation { announceLatencies.append(elapsed) } else { latencies.append(elapsed) }
        completed += 1
        if let problem = check(object, against: request.expectation) {
            fail("\(request.command) #\(request.id): \(problem): \(line.prefix(300))")
        }
    }

    private func receive(event: String, _ object: JSONObject, line: String) {
        // The only events an owner gets here are value changes of its own adjustable, made by
        // whichever client had focus on it.
        guard event == "value", object["tree"]?.stringValue == tree.name, object["element"]?.stringValue == "level",
            let value = object["value"]?.numberValue
        else { return fail("unexpected event: \(line.prefix(200))") }
        guard abs(value - level) <= 1, LoadTree.levelRange.contains(value), object["spoken"]?.stringValue == LoadTree.spoken(value) else {
            return fail("value event \(value) after \(level): \(line.prefix(200))")
        }
        level = value
    }

    /// Nil when the reply is what the request must get, else what is wrong with it.
    private func check(_ reply: JSONObject, against expectation: Expectation) -> String? {
        let ok = reply["ok"]?.boolValue == true
        if case .error(let code) = expectation {
            let actual = reply["error"]?["code"]?.stringValue
            return !ok && actual == code ? nil : "expected error \(code)"
        }
        if case .adjusted = expectation, !ok {
            // Another client's focus may be on an element that cannot be adjusted.
            let code = reply["error"]?["code"]?.stringValue ?? ""
            return ["not_adjustable", "no_focus", "unknown_tree"].contains(code) ? nil : "unexpected error \(code)"
        }
        guard ok else { return "not ok" }
        switch expectation {
        case .registered:
            guard reply["tree"]?.stringValue == tree.name, reply["stops"]?.numberValue == 4, reply["replaced"]?.boolValue == false else {
                return "wrong registration"
            }
            registered = true
        case .focus(let stop, let boundary):
            guard reply["focus"]?["tree"]?.stringValue == tree.name, reply["focus"]?["element"]?.stringValue == LoadTree.stopIDs[stop] else {
                return "focus should be \(tree.name)/\(LoadTree.stopIDs[stop])"
            }
            guard reply["boundary"]?.boolValue == boundary else { return "boundary should be \(boundary)" }
            let text = tree.utterance(ofStop: stop, level: level, note: note)
            let utterance = reply["utterance"]?.stringValue
            // Entering this tree from another client's speaks the title first; a boundary never does.
            guard utterance == text || (!boundary && utterance == "\(tree.title), \(text)") else {
                return "utterance should be \"\(text)\""
            }
            guard reply["hint"]?.stringValue == tree.hint(ofStop: stop) else { return "hint should be \(tree.hint(ofStop: stop) ?? "null")" }
            position = stop
        case .adjusted:
            guard let value = reply["value"]?.numberValue, LoadTree.levelRange.contains(value) else { return "no value in range" }
            if reply["focus"]?["tree"]?.stringValue == tree.name {
                // The value event for this change came before the reply.
                guard reply["focus"]?["element"]?.stringValue == "level", value == level, reply["utterance"]?.stringValue == LoadTree.spoken(value) else {
                    return "adjusting this tree's level should say \(LoadTree.spoken(level))"
                }
            }
        case .updated(let value):
            guard reply["tree"]?.stringValue == tree.name, reply["element"]?.stringValue == "note" else { return "wrong update reply" }
            note = value
        case .announced:
            guard reply["announcement"]?.numberValue != nil, let decision = reply["decision"]?.stringValue, Self.decisions.contains(decision) else {
                return "no announcement id or unknown decision"
            }
            guard reply["logged"]?.boolValue == true else { return "the announcement was not logged" }
        case .error:
            break
        }
        return nil
    }

    func fail(_ message: String) {
        if failures.count < 5 { failures.append("\(tree.name): \(message)") }
    }
}
