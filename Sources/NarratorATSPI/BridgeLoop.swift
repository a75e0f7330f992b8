import CAtspi
import Glibc
import NarratorCore
import NarratorSystem

/// `narrator-atspi run`: mirrors every window on the desktop into narratord and keeps the mirror
/// in step, on one thread running GLib's main loop (libatspi's events, the replies of the bridge's
/// own D-Bus connection, narratord's socket and the timers all arrive there, so no state is shared
/// between threads). The decisions are `ATSPIMirror`'s; this shell reads applications, feeds it,
/// and carries out what it says. Nothing here waits for an application: every read and every
/// action is an asynchronous call, so one hung application holds up no other.
final class BridgeLoop {
    typealias WindowID = ATSPIMirror.WindowID

    private let bus: ATSPIBus
    private var mirror = ATSPIMirror()
    /// The connection to narratord; nil while it is away (the bridge retries every second and,
    /// back, registers every window again: nothing the mirror knows is lost meanwhile).
    private var daemon: DaemonLink?
    private let socket: String
    private let log: (String) -> Void
    /// Every application on the desktop, by its bus name.
    private var applications: [String: Application] = [:]
    /// Applications to read again when the batch timer fires: a burst of events is one read.
    private var pending: Set<String> = []
    private var flushArmed = false
    private var retryArmed = false
    /// Windows activated whose focus event is awaited, oldest first (each has its timer).
    private var settling: [WindowID] = []
    private var listener: UnsafeMutablePointer<AtspiEventListener>?

    /// What the bridge knows of one application.
    private struct Application {
        var name = ""
        /// Its windows as last read, by object path.
        var windows: [String: AccessibleSnapshot] = [:]
        /// The window each object of it is in, by object path.
        var windowOf: [String: String] = [:]
        /// The read in flight, if any.
        var reader: ApplicationReader?
        /// Read again once the read in flight ends (events came during it).
        var again = false
        /// Focus moves that waited for a read (the object was not mirrored yet).
        var waiting: [Waiting] = []
        /// It did not answer the last read: said once, read again every few seconds.
        var unresponsive = false
        /// Reads of one object alone in flight (a focus move waits for them too).
        var objectReads = 0
        /// Objects read alone while a whole read was in flight: laid over its result.
        var freshObjects: [String: AccessibleSnapshot] = [:]
        /// The rows made active in each list that manages its descendants, by the list's path,
        /// with their index in it: what the mirror holds of such a list, kept across reads (the
        /// row left stays, so that Narrator's focus on it is never repaired to somewhere else).
        var activeDescendants: [String: [(index: Int, row: AccessibleSnapshot)]] = [:]

        var grafts: [String: [AccessibleSnapshot]] { activeDescendants.mapValues { $0.map(\.row) } }
    }

    private enum Waiting {
        case focus(path: String)
        case activate(window: String)
    }

    static let events = [
        "object:state-changed:focused", "object:children-changed", "object:property-change:accessible-name",
        "object:property-change:accessible-value", "object:property-change:accessible-description", "object:state-changed:checked",
        "object:state-changed:selected", "object:state-changed:sensitive", "object:state-changed:showing",
        "object:state-changed:expanded", "object:state-changed:indeterminate", "object:state-changed:defunct", "object:text-changed",
        "object:text-selection-changed", "object:active-descendant-changed", "window:create", "window:destroy", "window:activate",
    ]
    /// How long after an event the application it came from is read again (a burst is one read).
    static let batchMilliseconds: UInt32 = 25
    /// How long an activated window's focus event is waited for.
    static let activationMilliseconds: UInt32 = 150
    /// How often an application that did not answer is tried again.
    static let retryMilliseconds: UInt32 = 5_000
    /// The registry: its root object's children are the desktop's applications.
    static let registry = "org.a11y.atspi.Registry"

    /// The process's environment: where a new accessibility bus is looked for.
    private let environment: [String: String]

    init(daemon: DaemonLink, bus: ATSPIBus, socket: String, environment: [String: String], log: @escaping (String) -> Void) {
        self.daemon = daemon
        self.environment = environment
        self.bus = bus
        self.socket = socket
        self.log = log
    }

    deinit {
        if let listener { g_object_unref(listener) }
    }

    /// Mirrors what is on the desktop now, subscribes to its changes, and runs until the process
    /// is stopped (narratord going away is waited out).
    func run() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        listener = atspi_event_listener_new({ event, context in
            guard let event, let context else { return }
            let bridge = Unmanaged<BridgeLoop>.fromOpaque(context).takeUnretainedValue()
            bridge.handle(event)
            g_boxed_free(atspi_event_get_type(), event)
        }, me, nil)
        for type in Self.events { atspi_event_listener_register(listener, type, nil) }
        if let daemon { attach(daemon) }
        bus.whenClosed { self.accessibilityBusClosed() }
        rescan()
        atspi_event_main()
    }

    /// Says hello on a new connection and watches it for replies and events.
    private func attach(_ link: DaemonLink) {
        try? link.send(.hello(client: "narrator-atspi"), purpose: "hello")
        _ = g_unix_fd_add(link.fd, G_IO_IN, { _, _, context in
            guard let context else { return 0 }
            return Unmanaged<BridgeLoop>.fromOpaque(context).takeUnretainedValue().daemonReadable() ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Tries to reach narratord again in a second; once it answers, every window is registered again.
    private func armReconnect() {
        _ = g_timeout_add(1_000, { context in
            guard let context else { return 0 }
            return Unmanaged<BridgeLoop>.fromOpaque(context).takeUnretainedValue().reconnect() ? 0 : 1
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// One attempt; true once connected (the timer then stops).
    private func reconnect() -> Bool {
        guard let link = try? DaemonLink(socket: socket) else { return false }
        daemon = link
        attach(link)
        log("narrator-atspi: narratord is back at \(socket); registering \(mirror.trees.count) window(s) again")
        carryOut(mirror.resendAll())
        return true
    }

    // MARK: The accessibility bus

    /// The accessibility bus went away (its launcher stopped or crashed): every application on it
    /// is gone with it. libatspi cannot be started twice in a process, so once a new bus answers,
    /// the bridge starts again from scratch in this same process (exec), and mirrors what is on it.
    private func accessibilityBusClosed() {
        log("narrator-atspi: the accessibility bus went away; its applications' trees go, and the bridge starts again once a new bus answers")
        for name in applications.keys.sorted() { forget(name) }
        _ = g_timeout_add(1_000, { context in
            guard let context else { return 0 }
            return Unmanaged<BridgeLoop>.fromOpaque(context).takeUnretainedValue().restartIfTheBusIsBack() ? 0 : 1
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// One look for a new accessibility bus with its registry; true (never, in fact: the process
    /// is replaced) once found.
    private func restartIfTheBusIsBack() -> Bool {
        guard let next = try? ATSPIBus(environment: environment),
            case .success = next.sendAndWait(ATSPIRequest.children(ATSPIApplicationRead.root).call, to: Self.registry)
        else { return false }
        log("narrator-atspi: a new accessibility bus answers; starting again on it")
        // narratord forgets this connection's trees now, before the new process registers its own.
        daemon?.client.close()
        let failure = Syscall.replaceProcess(with: "/proc/self/exe", arguments: CommandLine.arguments)
        log("narrator-atspi: cannot start again (\(failure)); exiting so that systemd starts it")
        exit(4)
    }

    // MARK: The desktop

    /// Asks the registry for the desktop's applications: new ones are read, gone ones' trees go.
    private func rescan() {
        bus.send(ATSPIRequest.children(ATSPIApplicationRead.root).call, to: Self.registry) { reply in
            guard case .success(let value) = reply else {
                self.log("narrator-atspi: the registry did not list the desktop's applications: \(reply)")
                return
            }
            let present = Set((value[0]?.items ?? []).compactMap { $0[0]?.string })
            for name in present where self.applications[name] == nil {
                self.applications[name] = Application()
                self.read(name)
            }
            for name in Set(self.applications.keys).subtracting(present) { self.forget(name) }
        }
    }

    /// Reads the application `name` now (or once the read in flight ends) and tells narratord what changed.
    private func read(_ name: String) {
        guard applications[name] != nil else { return }
        pending.remove(name)
        if applications[name]?.reader != nil {
            applications[name]?.again = true
            return
        }
        applications[name]?.reader = ApplicationReader(application: name, bus: bus) { outcome in
            self.finished(name, outcome)
        }
    }

    private func finished(_ name: String, _ outcome: ATSPIApplicationRead.Outcome) {
        guard var application = applications[name] else { return }
        application.reader = nil
        switch outcome {
        case .gone:
            forget(name)
            return
        case .unresponsive:
            if !application.unresponsive {
                log("narrator-atspi: \(application.name.isEmpty ? name : application.name) (\(name)) did not answer within \(bus.timeoutMilliseconds) ms; its windows stay as last read, and it is tried again every \(Self.retryMilliseconds / 1000) s")
            }
            application.unresponsive = true
            applications[name] = application
            armRetry()
            return
        case .read(let title, let windows):
            if application.unresponsive { log("narrator-atspi: \(title) (\(name)) answers again") }
            application.unresponsive = false
            application.name = title
            var effects: [ATSPIMirror.Effect] = []
            var present: [String: AccessibleSnapshot] = [:]
            for found in windows where !found.states.contains(.defunct) {
                var window = found.grafting(application.grafts)
                // Objects read alone while this read was in flight are newer than what it found.
                for (path, object) in application.freshObjects { window = window.replacing(path, with: object) }
                present[window.path] = window
                effects += quieted(mirror.windowRead(WindowID(application: name, path: window.path), application: title, snapshot: window), application)
            }
            application.freshObjects = [:]
            for path in application.windows.keys where present[path] == nil {
                effects += mirror.windowGone(WindowID(application: name, path: path))
            }
            application.windows = present
            application.activeDescendants = application.activeDescendants.filter { list, _ in present.values.contains { $0.contains(path: list) } }
            application.windowOf = [:]
            for (path, window) in present { Self.index(window, in: path, into: &application.windowOf) }
            let again = application.again
            application.again = false
            applications[name] = application
            carryOut(effects)
            settleWaiting(name, moreComing: again)
            if again { read(name) }
        }
    }

    /// A focus move waited for this read: what changed where the focus was (a tab no longer
    /// selected) is not said on the way out.
    private func quieted(_ effects: [ATSPIMirror.Effect], _ application: Application) -> [ATSPIMirror.Effect] {
        guard application.waiting.contains(where: { if case .focus = $0 { true } else { false } }) else { return effects }
        return effects.map { effect in
            if case .update(let tree, let update, _) = effect { return .update(tree: tree, update, announce: false) }
            return effect
        }
    }

    /// Carries out the focus moves and activations that waited for reads, once none is in
    /// flight: each once its object is known, else dropped unless a newer read is coming.
    private func settleWaiting(_ name: String, moreComing: Bool) {
        guard var application = applications[name], application.reader == nil, application.objectReads == 0 else { return }
        let waits = application.waiting
        application.waiting = []
        applications[name] = application
        var kept: [Waiting] = []
        for wait in waits {
            switch wait {
            case .focus(let path):
                if let window = applications[name]?.windowOf[path] {
                    carryOut(mirror.focusMoved(WindowID(application: name, path: window), path: path))
                } else if moreComing {
                    kept.append(wait)
                }
            case .activate(let window):
                if applications[name]?.windows[window] != nil {
                    activated(WindowID(application: name, path: window))
                } else if moreComing {
                    kept.append(wait)
                }
            }
        }
        applications[name]?.waiting += kept
    }

    /// An event that changes one object's own facts (a state, its name, value, description or
    /// text): that object alone is read again, at once, and patched into the mirror, rather
    /// than the whole application after the batch delay, so that Space on a check box is said
    /// as soon as the application reports it.
    private func readObject(_ path: String, in name: String) {
        applications[name]?.objectReads += 1
        _ = ApplicationReader(application: name, bus: bus, read: ATSPIApplicationRead(object: path)) { outcome in
            self.objectRead(path, in: name, outcome)
        }
    }

    private func objectRead(_ path: String, in name: String, _ outcome: ATSPIApplicationRead.Outcome) {
        guard var application = applications[name] else { return }
        application.objectReads -= 1
        switch outcome {
        case .gone:
            forget(name)
            return
        case .unresponsive:
            // The whole application is read again (and given up on, and retried) as usual.
            applications[name] = application
            read(name)
            return
        case .read(_, let objects):
            if var object = objects.first, let window = application.windowOf[path], let snapshot = application.windows[window] {
                // A row of a list that manages its descendants keeps what it now says across
                // reads, and its place in the list, which only its first read asked.
                for (list, rows) in application.activeDescendants {
                    guard let index = rows.firstIndex(where: { $0.row.path == path }) else { continue }
                    object.position = rows[index].row.position
                    var kept = object
                    kept.children = rows[index].row.children
                    application.activeDescendants[list]?[index].row = kept
                }
                let patched = snapshot.replacing(path, with: object)
                application.windows[window] = patched
                if application.reader != nil { application.freshObjects[path] = object }
                applications[name] = application
                carryOut(quieted(mirror.windowRead(WindowID(application: name, path: window), application: application.name, snapshot: patched), application))
            } else {
                applications[name] = application
            }
        }
        settleWaiting(name, moreComing: false)
    }

    private static func index(_ node: AccessibleSnapshot, in window: String, into map: inout [String: String]) {
        map[node.path] = window
        for child in node.children { index(child, in: window, into: &map) }
    }

    /// How many rows of one list the mirror keeps (the nearest to the latest one).
    static let rowsKept = 100

    /// A list that manages its descendants made `row` (at `index` in it) active: the row alone
    /// is read, joins the list's children in the mirror, and takes Narrator's focus.
    private func readActiveDescendant(_ row: String, at index: Int, of list: String, in name: String) {
        _ = ApplicationReader(application: name, bus: bus, read: ATSPIApplicationRead(row: row, index: index, of: list)) { outcome in
            guard case .read(_, let objects) = outcome, let active = objects.first, var application = self.applications[name],
                let window = application.windowOf[list], let snapshot = application.windows[window]
            else { return }
            var rows = (application.activeDescendants[list] ?? []).filter { $0.row.path != row }
            rows.append((index, active))
            rows = Array(rows.sorted { abs($0.index - index) < abs($1.index - index) }.prefix(Self.rowsKept)).sorted { $0.index < $1.index }
            application.activeDescendants[list] = rows
            let grafted = snapshot.grafting(application.grafts)
            application.windows[window] = grafted
            Self.index(grafted, in: window, into: &application.windowOf)
            self.applications[name] = application
            let id = WindowID(application: name, path: window)
            self.carryOut(self.mirror.windowRead(id, application: application.name, snapshot: grafted))
            self.carryOut(self.mirror.focusMoved(id, path: row))
        }
    }

    /// The row a list that manages its descendants has selected, read as its active one (the
    /// list itself took the focus; moving in it then says each row as it becomes active).
    private func readSelectedRow(of list: String, in name: String) {
        let call = DBusCall(path: list, interface: "org.a11y.atspi.Selection", method: "GetSelectedChild", arguments: [.int32(0)])
        bus.send(call, to: name) { reply in
            guard case .success(let value) = reply, let row = value[0]?.objectPath, row != "/org/a11y/atspi/null" else { return }
            let indexCall = DBusCall(path: row, interface: "org.a11y.atspi.Accessible", method: "GetIndexInParent")
            self.bus.send(indexCall, to: name) { reply in
                guard case .success(let index) = reply else { return }
                self.readActiveDescendant(row, at: index[0]?.int ?? 0, of: list, in: name)
            }
        }
    }

    /// The application left the bus (or its windows all went): its trees go.
    private func forget(_ name: String) {
        applications.removeValue(forKey: name)
        pending.remove(name)
        carryOut(mirror.applicationGone(name))
    }

    private func armRetry() {
        guard !retryArmed else { return }
        retryArmed = true
        _ = g_timeout_add(Self.retryMilliseconds, { context in
            guard let context else { return 0 }
            let bridge = Unmanaged<BridgeLoop>.fromOpaque(context).takeUnretainedValue()
            bridge.retryArmed = false
            for (name, application) in bridge.applications where application.unresponsive { bridge.read(name) }
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    // MARK: Events

    private func handle(_ event: UnsafeMutablePointer<AtspiEvent>) {
        let type = event.pointee.type.map { String(cString: $0) } ?? ""
        guard let source = event.pointee.source,
            let name = narrator_atspi_bus_name(source).map({ String(cString: $0) }),
            let path = narrator_atspi_path(source).map({ String(cString: $0) })
        else { return }
        // The registry reports applications coming and going as the desktop's children.
        if name == Self.registry || (type.hasPrefix("object:children-changed") && atspi_accessible_get_role(source, nil) == ATSPI_ROLE_DESKTOP_FRAME) {
            rescan()
            return
        }
        if applications[name] == nil {
            // An application not seen yet (it started since the last scan): read at once.
            applications[name] = Application()
            read(name)
        }
        guard let application = applications[name] else { return }
        let current = application.reader == nil && application.objectReads == 0 && !pending.contains(name)
        if type == "object:state-changed:focused" {
            guard event.pointee.detail1 == 1 else { return }
            // What changed with the focus (a state, a new page) is read first, so the stop exists.
            if current, let window = application.windowOf[path] {
                let states = application.windows[window]?.object(at: path)?.states ?? []
                if states.contains(.editable) {
                    // A field is read before it is said: GTK selects its text as it takes the
                    // focus, after the focus event, and the focus says "selected".
                    applications[name]?.waiting.append(.focus(path: path))
                    readObject(path, in: name)
                    return
                }
                carryOut(mirror.focusMoved(WindowID(application: name, path: window), path: path))
                // A list that manages its rows takes the focus itself: its selected row is the one the user is on.
                if states.contains(.managesDescendants) { readSelectedRow(of: path, in: name) }
            } else {
                applications[name]?.waiting.append(.focus(path: path))
                read(name)
            }
            return
        }
        if type == "object:active-descendant-changed" {
            if let active = narrator_atspi_event_object(event), let row = narrator_atspi_path(active).map({ String(cString: $0) }) {
                readActiveDescendant(row, at: Int(event.pointee.detail1), of: path, in: name)
            }
            return
        }
        if type == "window:activate" {
            if current, application.windows[path] != nil {
                activated(WindowID(application: name, path: path))
            } else {
                applications[name]?.waiting.append(.activate(window: path))
                read(name)
            }
            return
        }
        if Self.objectEvents.contains(where: { type.hasPrefix($0) }), application.windowOf[path] != nil, application.reader == nil {
            readObject(path, in: name)
            return
        }
        pending.insert(name)
        armFlush()
    }

    /// Events that change only their object's own facts (read alone, at once).
    static let objectEvents = [
        "object:property-change:accessible-name", "object:property-change:accessible-value", "object:property-change:accessible-description",
        "object:state-changed:checked", "object:state-changed:selected", "object:state-changed:sensitive", "object:state-changed:expanded",
        "object:state-changed:indeterminate", "object:text-changed", "object:text-selection-changed",
    ]

    /// The window became active: the mirror enters it on its focus, or waits a moment for the
    /// focus event that follows an activation.
    private func activated(_ window: WindowID) {
        carryOut(mirror.windowActivated(window))
        settling.append(window)
        _ = g_timeout_add(Self.activationMilliseconds, { context in
            guard let context else { return 0 }
            let bridge = Unmanaged<BridgeLoop>.fromOpaque(context).takeUnretainedValue()
            if !bridge.settling.isEmpty { bridge.carryOut(bridge.mirror.activationSettled(bridge.settling.removeFirst())) }
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func armFlush() {
        guard !flushArmed else { return }
        flushArmed = true
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = g_timeout_add(Self.batchMilliseconds, { context in
            guard let context else { return 0 }
            Unmanaged<BridgeLoop>.fromOpaque(context).takeUnretainedValue().flush()
            return 0
        }, me)
    }

    private func flush() {
        flushArmed = false
        for name in pending.sorted() { read(name) }
    }

    // MARK: narratord

    /// The socket is readable: replies and owner events. False (removing the watch) once narratord is gone.
    private func daemonReadable() -> Bool {
        guard let link = daemon else { return false }
        guard let lines = link.receive() else {
            log("narrator-atspi: narratord closed the connection; trying \(socket) again every second")
            daemon = nil
            armReconnect()
            return false
        }
        for line in lines { take(line) }
        return true
    }

    private func take(_ line: JSONValue) {
        if let event = line["event"]?.stringValue {
            guard let tree = line["tree"]?.stringValue, let element = line["element"]?.stringValue else { return }
            switch event {
            case "action":
                guard let action = line["action"]?.stringValue else { return }
                carryOut(mirror.ownerAction(tree: tree, element: element, action: action))
            case "value":
                guard let value = line["value"]?.numberValue else { return }
                carryOut(mirror.ownerValue(tree: tree, element: element, value: value))
            case "focus":
                carryOut(mirror.ownerFocus(tree: tree, element: element))
            default:
                return
            }
            return
        }
        guard let number = line["id"]?.numberValue, let purpose = daemon?.finish(Int(number)) else { return }
        if line["ok"]?.boolValue == false {
            let message = line["error"]?["message"]?.stringValue ?? line.compactText
            log("narrator-atspi: \(purpose) was refused: \(message)")
            // An update the tree could not take (an id that moved): the window is sent whole again.
            if purpose.hasPrefix("update "), let id = mirror.trees.first(where: { $0.value == String(purpose.dropFirst(7)) })?.key {
                carryOut(mirror.resend(id))
            }
        }
    }

    // MARK: Effects

    private func carryOut(_ effects: [ATSPIMirror.Effect]) {
        for effect in effects {
            do {
                switch effect {
                case .register, .update, .unregister, .focus, .announce:
                    // While narratord is away its share waits: reconnecting registers every window whole.
                    guard let daemon else { continue }
                    try send(effect, to: daemon)
                case .perform(let window, let path, let action):
                    guard let index = snapshot(window, path)?.actions.firstIndex(of: action) else {
                        log("narrator-atspi: cannot perform \(action): \(path) is no longer in \(window)")
                        continue
                    }
                    act(window, "perform \(action) on \(path)", DBusCall(path: path, interface: "org.a11y.atspi.Action", method: "DoAction", arguments: [.int32(Int32(index))]))
                case .setValue(let window, let path, let value):
                    act(window, "set \(path)'s value to \(value)", DBusCall(
                        path: path, interface: "org.freedesktop.DBus.Properties", method: "Set",
                        arguments: [.string("org.a11y.atspi.Value"), .string("CurrentValue"), .variantDouble(value)]))
                case .grabFocus(let window, let path):
                    act(window, "grab the focus for \(path)", DBusCall(path: path, interface: "org.a11y.atspi.Component", method: "GrabFocus"))
                }
            } catch {
                log("narrator-atspi: could not tell narratord: \(error)")
            }
        }
    }

    /// A request for narratord.
    private func send(_ effect: ATSPIMirror.Effect, to daemon: DaemonLink) throws {
        switch effect {
        case .register(let document):
            let raw = try RawJSON(TreeDocumentEncoder.json(document).compactText)
            try daemon.send(.register(document: raw, ephemeral: true, focusEvents: true), purpose: "register \(document.name)")
        case .update(let tree, let update, let announce):
            try daemon.send(.update(tree: tree, update: update, announce: announce, notify: nil), purpose: "update \(tree)")
        case .unregister(let tree):
            try daemon.send(.unregister(tree: tree), purpose: "unregister \(tree)")
        case .focus(let tree, let element):
            try daemon.send(.focus(tree: tree, element: element), purpose: "focus \(tree) \(element ?? "(the tree)")")
        case .announce(let tree, let element, let text):
            // High priority: an alert is what the application most wants heard; the key lets a
            // newer text from the same alert replace one still waiting.
            try daemon.send(
                .announce(text: text, priority: .high, tree: tree, element: element, key: "alert \(element)"), purpose: "announce in \(tree)")
        case .perform, .setValue, .grabFocus:
            return
        }
    }

    /// The object at `path` in `window` as last read.
    private func snapshot(_ window: WindowID, _ path: String) -> AccessibleSnapshot? {
        applications[window.application]?.windows[window.path]?.object(at: path)
    }

    /// Calls into the application without waiting; says so when the call failed (the result
    /// itself comes back as the application's events).
    private func act(_ window: WindowID, _ what: String, _ call: DBusCall) {
        bus.send(call, to: window.application) { reply in
            switch reply {
            case .success(let value):
                if value[0]?.unwrapped == .bool(false) { self.log("narrator-atspi: \(window.application) refused to \(what)") }
            case .failure(let failure):
                self.log("narrator-atspi: could not \(what) in \(window.application): \(failure)")
            }
        }
    }
}
