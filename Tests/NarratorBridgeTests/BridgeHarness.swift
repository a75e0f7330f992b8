import NarratorBase
@testable import NarratorBridge
@testable import NarratorModel
@testable import NarratorProtocol
import NarratorKeyboard
import Testing
@testable import NarratorDBus

/// One ``ATSPIBridge`` on a virtual desktop and a virtual clock: the shell's part played by a
/// test. Applications answer each question the way a bus does, a round trip after it is asked;
/// a hung one answers nothing until its question's bound passes; timers fire as the clock moves.
/// What the bridge sent narratord, wrote in the journal and called in applications is collected
/// for the test to assert exactly.
struct BridgeHarness {
    static let socket = "/run/user/1000/narrator/narratord.sock"
    var bridge = ATSPIBridge(configuration: ATSPIBridge.Configuration(socket: socket))
    var now = MonotonicInstant(nanoseconds: 1_000_000_000)
    /// The desktop's applications by bus name; change one between inputs as the application would.
    var desktop: [String: FakeApplication] = [:]
    /// Applications that answer nothing (stopped, or hung in a handler).
    var hung: Set<String> = []
    /// Whether narratord takes a new connection, and whether a new accessibility bus answers.
    var daemonListening = true
    var newBusAnswers = true
    /// What an application answers to an action (`DoAction`, `GrabFocus`, setting a value).
    var actionAnswer: Result<DBusValue, DBusFailure> = .success(.structure([.bool(true)]))

    /// Requests to narratord, journal lines, and calls into applications other than reads, in order.
    var requests: [RequestCommand] = []
    var journal: [String] = []
    var calls: [(application: String, call: DBusCall)] = []
    /// Every question asked, reads included.
    var asked: [(application: String, question: BridgeQuestion)] = []
    var connects = 0
    var restarts = 0
    /// The ids of the requests sent, in order, to answer them.
    var requestIDs: [Int] = []
    /// Questions a hung application has not answered, with the time their bound passes.
    private(set) var unanswered: [(question: BridgeQuestion, application: String, deadline: MonotonicInstant)] = []
    /// Which questions are held (a read kept in flight, its application slow but not hung: no
    /// bound passes) until ``release(where:)`` answers them.
    var holds: @Sendable (_ application: String, _ question: BridgeQuestion) -> Bool = { _, _ in false }
    private(set) var held: [(question: BridgeQuestion, application: String)] = []
    private var readsSeen: Set<ReadID> = []
    private(set) var timers: [(timer: BridgeTimer, at: MonotonicInstant)] = []

    /// A harness whose desktop holds `applications` (each under its own bus name).
    init(_ applications: FakeApplication...) {
        for application in applications { desktop[application.bus] = application }
    }

    /// The bridge starts: says hello, lists the desktop and reads every application there.
    mutating func start() {
        feed(.started)
    }

    /// Starts the bridge and takes what the start sent, said and asked: the scenario begins on a
    /// desktop already mirrored.
    mutating func startMirrored() {
        start()
        requests = []
        journal = []
        asked = []
    }

    /// Feeds `input` and everything that follows from it with no time passing: each wave of
    /// questions is answered once the effects before it are carried out, as replies come back.
    mutating func feed(_ input: BridgeInput) {
        var queue = [input]
        while !queue.isEmpty {
            let next = queue.removeFirst()
            for effect in bridge.handle(next, at: now) { queue += carryOut(effect) }
        }
    }

    /// An event from `application` about `path`.
    mutating func event(_ type: String, _ application: String, _ path: String, detail1: Int = 0, detail2: Int = 0, object: String? = nil, text: String? = nil) {
        feed(.event(ATSPIEvent(type, application: application, path: path, detail1: detail1, detail2: detail2, object: object, text: text)))
    }

    /// The application's focus moves to `path`.
    mutating func focus(_ application: String, _ path: String) {
        event("object:state-changed:focused", application, path, detail1: 1)
    }

    /// A key pressed, as narrator-atspi's key listener reports it (X's keysym and modifier bits).
    mutating func press(_ keysym: UInt32, modifiers: UInt32 = 0) {
        feed(.keyEvent(KeyEvent(.press, Keysym(keysym), xModifiers: modifiers, at: now), LocalTime(year: 2026, month: 12, day: 7, weekday: 1, hour: 9, minute: 0)))
    }

    /// Moves the clock on by `duration`, firing each timer and giving up each question as it falls due.
    mutating func advance(by duration: Duration) {
        let target = now + duration
        while true {
            let timer = timers.indices.filter { timers[$0].at <= target }.min { timers[$0].at < timers[$1].at }
            let question = unanswered.indices.filter { unanswered[$0].deadline <= target }.min { unanswered[$0].deadline < unanswered[$1].deadline }
            if let t = timer, question.map({ timers[t].at <= unanswered[$0].deadline }) ?? true {
                let due = timers.remove(at: t)
                now = max(now, due.at)
                feed(.timerFired(due.timer))
            } else if let q = question {
                let due = unanswered.remove(at: q)
                now = max(now, due.deadline)
                feed(.answered(due.question, .failure(.timedOut)))
            } else {
                break
            }
        }
        now = target
    }

    /// The application answers again: what it was asked and has not yet given up on is answered now.
    mutating func resume(_ application: String) {
        hung.remove(application)
        let waiting = unanswered.filter { $0.application == application }
        unanswered.removeAll { $0.application == application }
        for question in waiting { feed(.answered(question.question, answer(question.question, from: application))) }
    }

    /// Answers the held questions that `matching` picks, in the order they were asked, from the
    /// applications as they are now (what the answers lead to is asked as usual: held again if
    /// ``holds`` still says so).
    mutating func release(where matching: (BridgeQuestion) -> Bool = { _ in true }) {
        let due = held.filter { matching($0.question) }
        held.removeAll { matching($0.question) }
        for question in due { feed(.answered(question.question, answer(question.question, from: question.application))) }
    }

    /// The reads begun since the last call, each with its application and the requests asked
    /// so far, in order (a whole application's read starts with `.items`); the questions of reads
    /// begun before are left out. Takes ``asked``.
    mutating func reads() -> [(id: ReadID, application: String, requests: [ATSPIRequest])] {
        var found: [(id: ReadID, application: String, requests: [ATSPIRequest])] = []
        for (application, question) in asked {
            guard case .read(let id, let request) = question, !readsSeen.contains(id) else { continue }
            if let index = found.firstIndex(where: { $0.id == id }) {
                found[index].requests.append(request)
            } else {
                found.append((id, application, [request]))
            }
        }
        readsSeen.formUnion(found.map(\.id))
        asked = []
        return found
    }

    /// The timers set and not fired yet, soonest first.
    var pendingTimers: [BridgeTimer] { timers.sorted { $0.at < $1.at }.map(\.timer) }

    /// How many key events the bridge took (kept from the application).
    var keysTaken = 0
    /// Caps Lock as the bridge last set it in the X server (nil: never set).
    var capsLock: Bool?
    /// Each set of grabs asked for, in order.
    var grabs: [KeyGrabs] = []

    /// What went to narratord since the last call, taken.
    mutating func sent() -> [RequestCommand] {
        defer { requests = [] }
        return requests
    }

    /// Journal lines since the last call, taken.
    mutating func said() -> [String] {
        defer { journal = [] }
        return journal
    }

    /// A reply line to the `index`th request sent so far (0-based), refusing it with `code`.
    func refusal(of index: Int, _ code: ErrorCode, _ message: String) -> String {
        Reply(id: .number(Double(requestIDs[index])), .failure(ReplyError(code, message))).json.compactText
    }

    private mutating func carryOut(_ effect: BridgeEffect) -> [BridgeInput] {
        switch effect {
        case .ask(let question, let application, let call, let timeout):
            asked.append((application, question))
            if case .act = question { calls.append((application, call)) }
            if hung.contains(application) {
                unanswered.append((question, application, now + timeout))
                return []
            }
            if holds(application, question) {
                held.append((question, application))
                return []
            }
            return [.answered(question, answer(question, from: application))]
        case .request(let request):
            requests.append(request.command)
            if case .number(let id)? = request.id { requestIDs.append(Int(id)) }
            return []
        case .connectToDaemon:
            connects += 1
            return [daemonListening ? .daemonConnected : .daemonUnreachable("connection refused")]
        case .setTimer(let timer, let deadline):
            timers.append((timer, deadline))
            return []
        case .lookForNewBus:
            return [.newBus(found: newBusAnswers)]
        case .restart:
            restarts += 1
            return []
        case .journal(let line):
            journal.append(line)
            return []
        case .takeKey:
            keysTaken += 1
            return []
        case .setCapsLock(let on):
            capsLock = on
            return []
        case .grabKeys(let grabs):
            self.grabs.append(grabs)
            return []
        }
    }

    private func answer(_ question: BridgeQuestion, from application: String) -> Result<DBusValue, DBusFailure> {
        switch question {
        case .desktop:
            return .success(.structure([.array(desktop.keys.sorted().map { .structure([.string($0), .string(ATSPIApplicationRead.root)]) })]))
        case .read(_, let request):
            return desktop[application]?.answer(request) ?? .failure(.gone)
        case .selectedRow(_, let list):
            guard let app = desktop[application] else { return .failure(.gone) }
            let row = app.find(list)?.children.first { $0.states.contains(.selected) }?.path ?? "/org/a11y/atspi/null"
            return .success(.structure([.structure([.string(application), .string(row)])]))
        case .rowIndex(_, let row, let list):
            guard let app = desktop[application] else { return .failure(.gone) }
            return .success(.structure([.integer(Int64(app.find(list)?.children.firstIndex { $0.path == row } ?? -1))]))
        case .selection(_, let path):
            return desktop[application]?.answer(.selection(path)) ?? .failure(.gone)
        case .act:
            return desktop[application] == nil ? .failure(.gone) : actionAnswer
        }
    }
}

/// The requests a scenario expects, made from what the application shows (the mapping itself is
/// tested in ATSPIMappingTests). They do not throw, so that a failed expectation prints both
/// sides; a malformed expectation is an issue of the test (and `.stop`, which matches nothing).
extension RequestCommand {
    /// The register of `window` of the application `application`, as the bridge sends it.
    static func register(_ window: AccessibleSnapshot, application: String, taken: Set<String> = []) -> RequestCommand {
        let document = ATSPIMapping.document(window: window, application: application, taken: taken)
        do {
            return .register(document: try RawJSON(TreeDocumentEncoder.json(document).compactText), ephemeral: true, focusEvents: true)
        } catch {
            Issue.record("cannot encode \(document.name): \(error)")
            return .stop
        }
    }

    /// An update of `tree` setting `properties` (a JSON object's text) on `element`.
    static func set(_ tree: String, _ element: String, _ properties: String, announce: Bool) -> RequestCommand {
        do {
            return .update(tree: tree, update: .setProperties(element: element, properties: try JSONParser().parse(properties)), announce: announce, notify: nil)
        } catch {
            Issue.record("not JSON: \(properties): \(error)")
            return .stop
        }
    }

    /// An update of `tree` replacing `element`'s children with what they are in `window` (of the
    /// application `application`) as the mapping makes it.
    static func children(_ tree: String, of element: String, in window: AccessibleSnapshot, application: String, announce: Bool = false) -> RequestCommand {
        let root = ATSPIMapping.document(window: window, application: application).root
        func find(_ node: Node) -> Node? { node.id == element ? node : node.children.lazy.compactMap(find).first }
        guard let node = find(root) else {
            Issue.record("no element \(element) in \(window.path)")
            return .stop
        }
        return .update(
            tree: tree, update: .replaceChildren(element: element, children: .array(node.children.map { TreeDocumentEncoder.json($0) })),
            announce: announce, notify: nil)
    }

    /// The tree a `register` names, read back from its document.
    var registeredTree: String? {
        guard case .register(let document, _, _) = self, case .object(let object)? = try? JSONParser().parse(document.bytes) else { return nil }
        return object["tree"]?.stringValue
    }
}
