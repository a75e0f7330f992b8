import NarratorBase
import NarratorKeyboard
import NarratorModel
import NarratorProtocol
import NarratorDBus

/// narrator-atspi's decisions, as one value in the style of ``Session``: it owns what the bridge
/// knows of every application on the desktop, the reads in flight, the mirror of their windows
/// and the connection's requests to narratord, and is driven by typed inputs only (an event, an
/// answer, a line from narratord, a timer, the bus or narratord gone), returning effects as values
/// (ask these D-Bus questions, send narratord this request, set this timer). The shell
/// (`narrator-atspi run`) turns libatspi's and its own bus connection's callbacks into inputs and carries the
/// effects out; it decides nothing. So every behaviour runs in a test, on a virtual clock,
/// without a desktop (Tests/NarratorBridgeTests).
public struct ATSPIBridge: Sendable {
    public typealias WindowID = ATSPIMirror.WindowID

    /// The bridge's bounds and delays.
    public struct Configuration: Sendable {
        /// narratord's socket, named in the journal.
        public var socket: String
        /// How long a question to an application may wait for its answer: one that takes longer
        /// is hung, and its windows stay as last read.
        public var questionTimeout: Duration = .seconds(2)
        /// How long after an event its application is read again (a burst of events is one read).
        public var batchDelay: Duration = .milliseconds(25)
        /// How long an activated window's focus event is waited for.
        public var activationDelay: Duration = .milliseconds(150)
        /// How often an application that did not answer is tried again.
        public var retryDelay: Duration = .seconds(5)
        /// How often narratord, and a new accessibility bus, are looked for once gone.
        public var reconnectDelay: Duration = .seconds(1)
        /// How many questions are in flight to one application at a time (the rest wait in order).
        public var questionsInFlight = 128
        /// How many rows of one lazily read list the mirror keeps (the nearest to the latest one).
        public var rowsKept = 100
        /// Up to how many changed parts of one application are read again each on its own; more
        /// in one batch, and the whole application is read (fewer questions than so many parts).
        public var changedPartsRead = 32
        /// At most this many children of one object are read with the rest of a window; the
        /// others are read after it is mirrored, ``fillChunk`` children at a time, so that a long
        /// web page is heard at once and complete within seconds.
        public var childrenAtOnce = 100
        public var fillChunk = 250
        /// A child a page added or removed is told narratord once no key came for this long:
        /// each telling compares the whole window (over 100 ms on a page of 10,000 objects), and
        /// Firefox adds its link-address bar at each link a key moves to, so that telling at once
        /// would hold up the next key (``ATSPIBridge/mirrorWhenQuiet(_:)``).
        public var keyQuiet: Duration = .milliseconds(500)

        public init(socket: String) { self.socket = socket }
    }

    /// The registry: its root object's children are the desktop's applications.
    public static let registry = "org.a11y.atspi.Registry"

    public let configuration: Configuration
    /// The trees registered in narratord, and what they were made from.
    public internal(set) var mirror = ATSPIMirror()
    /// Every application on the desktop, by its bus name.
    var applications: [String: BridgeApplication] = [:]
    /// Applications given up for a hostile tree (``giveUp(_:_:)``), by bus name, while they are on the bus.
    public internal(set) var givenUp: Set<String> = []
    var reads: [ReadID: BridgeRead] = [:]
    var nextRead = 1
    /// Whether narratord is connected; while it is away its share waits (reconnecting registers
    /// every window whole).
    var daemonConnected = true
    /// Requests sent to narratord, by id, until their replies come.
    var inFlight: [Int: DaemonPurpose] = [:]
    var nextRequest = 1
    private var batchArmed = false
    private var quietMirrorArmed = false
    /// When the last key event came (``mirrorWhenQuiet(_:)``).
    var lastKeyAt: MonotonicInstant?
    private var retryArmed = false
    /// Windows activated whose focus event is awaited, oldest first, each with its timer's number.
    private var settling: [(sequence: Int, window: WindowID)] = []
    private var nextActivation = 1
    /// The accessibility bus went away: a new one is looked for.
    private var busGone = false
    /// The effects of the input being handled, and its time.
    var effects: [BridgeEffect] = []
    /// Each application's questions in flight and waiting (``QuestionWindow``), and where each
    /// question in flight went.
    var questionWindows: [String: QuestionWindow] = [:]
    var destinations: [BridgeQuestion: [String]] = [:]
    private(set) var now = MonotonicInstant(nanoseconds: 0)
    /// The last key pressed, and when.
    var lastKey: (KeyPress, MonotonicInstant)?
    /// What each key means: the keymap, Narrator's key, learn mode, browse or focus mode.
    var keys = KeyInterpreter(keymap: Keymap(layout: .desktop))
    /// Where narratord's focus is, as its replies to the bridge's requests said: what a browse
    /// key is judged by (a document's text, or a field).
    var narratorFocus: Focus?
    /// Where browse mode's cursor last moved Narrator's focus: a field it put the cursor on is
    /// read past with the arrows, not typed into, until the application moves the focus itself.
    var browsedTo: Focus?
    /// The application's focus went to a page's field in browse mode: focus mode, said, until it
    /// leaves the field or Escape.
    var inField = false
    /// What narratord last started saying (not a hint): what the repeat key says again.
    var lastSpoken: String?
    /// Browse mode's place in a page's lines (``PageLines``), while Narrator's focus is where it put it.
    var reading: LineCursor?
    /// The X keyboard, once the shell has read it: keys come raw, and Narrator's are grabbed.
    /// Nil: keys come from AT-SPI2's keystroke listener (no X server).
    var rawKeyboard: GrabbedKeyboard?

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// The bus names of the applications known now.
    public var applicationNames: [String] { applications.keys.sorted() }

    /// Whether a read of `application` is in flight.
    public func isReading(_ application: String) -> Bool {
        reads.values.contains { $0.application == application }
    }

    /// Decides what `input`, happening `now`, means, and returns what to do.
    public mutating func handle(_ input: BridgeInput, at now: MonotonicInstant) -> [BridgeEffect] {
        self.now = now
        effects = []
        switch input {
        case .started:
            send(.hello, .hello(client: "narrator-atspi"))
            send(.subscribe, .subscribe)
            rescan()
        case .event(let event):
            take(event)
        case .keyEvent(let event, let time):
            keyEvent(event, time: time)
        case .keyboard(let table):
            keyboardRead(table)
        case .rawKey(let keycode, let down, let serverTime, let time):
            rawKey(keycode, down: down, serverTime: serverTime, time: time)
        case .lockedModifiers(let locked):
            rawKeyboard?.raw.locked = locked
        case .keymapRead(let path, let read):
            keymapRead(path, read)
        case .answered(let question, let reply):
            answerArrived(question)
            answered(question, reply)
        case .daemonLine(let line):
            takeDaemonLine(line)
        case .daemonClosed:
            daemonClosed()
        case .daemonConnected:
            daemonBack()
        case .daemonUnreachable:
            setTimer(.reconnect, after: configuration.reconnectDelay)
        case .timerFired(let timer):
            fired(timer)
        case .busClosed:
            busClosed()
        case .refusedLate(let application, let reason):
            // One already given up or gone is not said again.
            if applications[application] != nil { giveUp(application, "its late answer was refused: \(reason)") }
        case .newBus(let found):
            if found {
                journal("a new accessibility bus answers; starting again on it")
                effects.append(.restart)
            } else {
                setTimer(.lookForBus, after: configuration.reconnectDelay)
            }
        }
        grabWhatIsTaken()
        let decided = effects
        effects = []
        return decided
    }

    mutating func journal(_ line: String) {
        effects.append(.journal("narrator-atspi: " + line))
    }

    // MARK: Timers

    private mutating func fired(_ timer: BridgeTimer) {
        switch timer {
        case .batch:
            batchArmed = false
            for name in applications.keys.sorted() {
                if applications[name]?.pending == true {
                    read(name)
                } else if applications[name]?.changedParts.isEmpty == false || applications[name]?.changedChildren.isEmpty == false {
                    readChangedParts(of: name)
                }
            }
        case .retryUnresponsive:
            retryArmed = false
            for name in applications.keys.sorted() where applications[name]?.unresponsive == true || applications[name]?.erroredReads ?? 0 > 0 {
                read(name)
            }
        case .activation(let sequence):
            guard let index = settling.firstIndex(where: { $0.sequence == sequence }) else { return }
            let window = settling.remove(at: index).window
            carryOut(mirror.activationSettled(window))
        case .reconnect:
            if !daemonConnected { effects.append(.connectToDaemon) }
        case .lookForBus:
            if busGone { effects.append(.lookForNewBus) }
        case .narratorTap:
            // grabWhatIsTaken, after every input, grabs the key again.
            return
        case .quietMirror:
            quietMirrorArmed = false
            for name in applications.keys.sorted() where applications[name]?.unmirrored.isEmpty == false { mirrorWhenQuiet(name) }
        }
    }

    mutating func setTimer(_ timer: BridgeTimer, after delay: Duration) {
        effects.append(.setTimer(timer, at: now + delay))
    }

    /// Tells narratord of `name`'s windows changed and not told yet, once no key came for
    /// ``Configuration/keyQuiet`` (at once when a focus waits for them).
    mutating func mirrorWhenQuiet(_ name: String) {
        guard let last = lastKeyAt, now - last < configuration.keyQuiet, applications[name]?.waiting.isEmpty != false else {
            mirrorUnmirrored(of: name)
            return
        }
        guard !quietMirrorArmed else { return }
        quietMirrorArmed = true
        effects.append(.setTimer(.quietMirror, at: last + configuration.keyQuiet))
    }

    mutating func armBatch() {
        guard !batchArmed else { return }
        batchArmed = true
        setTimer(.batch, after: configuration.batchDelay)
    }

    /// Whole reads answered with nothing but errors, one retry apart, before an application is
    /// given up: three reads over about 10 s, when a toolkit still setting up takes a moment.
    static let erroredReadsBeforeGivingUp = 3

    mutating func armRetry() {
        guard !retryArmed else { return }
        retryArmed = true
        setTimer(.retryUnresponsive, after: configuration.retryDelay)
    }

    /// The window became active: the mirror enters it on its focus, or waits a moment for the
    /// focus event that follows an activation.
    mutating func activated(_ window: WindowID) {
        carryOut(mirror.windowActivated(window))
        let sequence = nextActivation
        nextActivation += 1
        settling.append((sequence, window))
        setTimer(.activation(sequence: sequence), after: configuration.activationDelay)
    }

    // MARK: The accessibility bus

    /// Every application on the bus is gone with it. libatspi cannot be started twice in a
    /// process, so once a new bus answers the bridge starts again from scratch.
    private mutating func busClosed() {
        journal("the accessibility bus went away; its applications' trees go, and the bridge starts again once a new bus answers")
        for name in applications.keys.sorted() { forget(name) }
        busGone = true
        setTimer(.lookForBus, after: configuration.reconnectDelay)
    }

    // MARK: Effects

    /// Sends narratord `command`, remembering what it was for until its reply comes.
    mutating func send(_ purpose: DaemonPurpose, _ command: RequestCommand) {
        guard daemonConnected else { return }
        let id = nextRequest
        nextRequest += 1
        inFlight[id] = purpose
        effects.append(.request(Request(id: .number(Double(id)), command: command)))
    }

    /// Carries out what the mirror decided: requests to narratord, calls into applications.
    mutating func carryOut(_ decided: [ATSPIMirror.Effect]) {
        for effect in decided {
            switch effect {
            case .register(let document):
                do {
                    let raw = try RawJSON(TreeDocumentEncoder.json(document).compactText)
                    send(.register(tree: document.name, generation: mirror.generation(of: document.name) ?? 0), .register(document: raw, ephemeral: true, focusEvents: true))
                } catch {
                    journal("cannot send \(document.name) to narratord: \(error)")
                }
            case .update(let tree, let update, let announce):
                send(.update(tree: tree, generation: mirror.generation(of: tree) ?? 0), .update(tree: tree, update: update, announce: announce, notify: nil))
            case .updateFocusing(let tree, let update, let element):
                send(.update(tree: tree, generation: mirror.generation(of: tree) ?? 0),
                     .update(tree: tree, update: update, announce: false, notify: .layoutChanged(element: element)))
            case .enterPage(let tree, let root, let title, let element):
                send(.update(tree: tree, generation: mirror.generation(of: tree) ?? 0),
                     .update(tree: tree, update: .retitle(element: root, title: title), announce: false, notify: .screenChanged(element: element)))
            case .unregister(let tree):
                send(.unregister(tree: tree), .unregister(tree: tree))
            case .focus(let tree, let element):
                send(.focus(tree: tree, element: element), .focus(tree: tree, element: element))
            case .announce(let tree, let element, let text):
                // High priority: an alert is what the application most wants heard; the key lets a
                // newer text from the same alert replace one still waiting.
                send(.announce(tree: tree), .announce(text: text, priority: .high, tree: tree, element: element, key: "alert \(element)"))
            case .perform(let window, let path, let action):
                guard let index = applications[window.application]?.windows[window.path]?.object(at: path)?.actions.firstIndex(of: action) else {
                    journal("cannot perform \(action): \(path) is no longer in \(window)")
                    continue
                }
                act(window, "perform \(action) on \(path)", DBusCall(path: path, interface: "org.a11y.atspi.Action", method: "DoAction", arguments: [.int32(Int32(index))]))
            case .setValue(let window, let path, let value):
                act(window, "set \(path)'s value to \(value)", DBusCall(
                    path: path, interface: "org.freedesktop.DBus.Properties", method: "Set",
                    arguments: [.string("org.a11y.atspi.Value"), .string("CurrentValue"), .variantDouble(value)]))
            case .grabFocus(let window, let path):
                act(window, "grab the focus for \(path)", DBusCall(path: path, interface: "org.a11y.atspi.Component", method: "GrabFocus"))
            case .setCaret(let window, let path):
                act(window, "move the caret to \(path)", DBusCall(path: path, interface: "org.a11y.atspi.Text", method: "SetCaretOffset", arguments: [.int32(0)]))
            }
        }
    }

    /// Calls into the application without waiting; its answer only says whether it refused (the
    /// result itself comes back as the application's events).
    private mutating func act(_ window: WindowID, _ what: String, _ call: DBusCall) {
        ask(.act(window, what: what), of: window.application, call)
    }
}
