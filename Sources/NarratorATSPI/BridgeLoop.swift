import CAtspi
import Glibc
import NarratorCore

/// `narrator-atspi run`: mirrors every window on the desktop into narratord and keeps the mirror
/// in step, on one thread running GLib's main loop (libatspi's events, narratord's socket and the
/// timer that batches re-reads all arrive there, so no state is shared between threads). The
/// decisions are `ATSPIMirror`'s; this shell reads windows, feeds it, and carries out what it says.
final class BridgeLoop {
    typealias WindowID = ATSPIMirror.WindowID

    private let reader = ATSPIReader()
    private var mirror = ATSPIMirror()
    /// The connection to narratord; nil while it is away (the bridge retries every second and,
    /// back, registers every window again: nothing the mirror knows is lost meanwhile).
    private var daemon: DaemonLink?
    private let socket: String
    private let log: (String) -> Void
    /// Each mirrored window's accessible (a reference this loop holds), and its application's name.
    private var windows: [WindowID: (accessible: UnsafeMutablePointer<AtspiAccessible>, application: String)] = [:]
    /// Windows to read again when the batch timer fires: a burst of events is one read.
    private var pending: Set<WindowID> = []
    private var flushArmed = false
    private var listener: UnsafeMutablePointer<AtspiEventListener>?

    static let events = [
        "object:state-changed:focused", "object:children-changed", "object:property-change:accessible-name",
        "object:property-change:accessible-value", "object:property-change:accessible-description", "object:state-changed:checked",
        "object:state-changed:selected", "object:state-changed:sensitive", "object:state-changed:showing",
        "object:state-changed:expanded", "object:state-changed:indeterminate", "object:state-changed:defunct", "object:text-changed",
        "window:create", "window:destroy", "window:activate",
    ]
    /// How long after an event the windows it touched are read again (a burst is one read).
    static let batchMilliseconds: UInt32 = 25

    init(daemon: DaemonLink, socket: String, log: @escaping (String) -> Void) {
        self.daemon = daemon
        self.socket = socket
        self.log = log
    }

    deinit {
        for window in windows.values { g_object_unref(window.accessible) }
        if let listener { g_object_unref(listener) }
    }

    /// Mirrors what is on the desktop now, subscribes to its changes, and runs until the process
    /// is stopped (narratord going away is waited out).
    func run() {
        // A hung application answers nothing: give up on a call after 2 s rather than libatspi's 25.
        atspi_set_timeout(2_000, 15_000)
        let me = Unmanaged.passUnretained(self).toOpaque()
        listener = atspi_event_listener_new({ event, context in
            guard let event, let context else { return }
            let bridge = Unmanaged<BridgeLoop>.fromOpaque(context).takeUnretainedValue()
            bridge.handle(event)
            g_boxed_free(atspi_event_get_type(), event)
        }, me, nil)
        for type in Self.events { atspi_event_listener_register(listener, type, nil) }
        if let daemon { attach(daemon) }
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

    // MARK: The desktop

    /// Reads the applications on the desktop: new windows are mirrored, gone applications' trees go.
    private func rescan() {
        guard let desktop = atspi_get_desktop(0) else { return }
        defer { g_object_unref(desktop) }
        var present: Set<String> = []
        for application in reader.children(of: desktop) {
            defer { g_object_unref(application) }
            guard let bus = narrator_atspi_bus_name(application).map({ String(cString: $0) }) else { continue }
            present.insert(bus)
            let name = reader.string(atspi_accessible_get_name(application, nil))
            for window in reader.children(of: application) {
                let id = WindowID(application: bus, path: narrator_atspi_path(window).map { String(cString: $0) } ?? "")
                if windows[id] == nil {
                    windows[id] = (window, name)
                    read(id)
                } else {
                    g_object_unref(window)
                }
            }
        }
        for bus in Set(windows.keys.map(\.application)).subtracting(present) {
            for id in windows.keys where id.application == bus { forget(id) }
            carryOut(mirror.applicationGone(bus))
        }
    }

    /// Reads `id` again now and tells narratord what changed.
    private func read(_ id: WindowID) {
        guard let window = windows[id] else { return }
        pending.remove(id)
        let snapshot = reader.snapshot(window.accessible, depth: 0)
        if snapshot.states.contains(.defunct) {
            forget(id)
            carryOut(mirror.windowGone(id))
            return
        }
        carryOut(mirror.windowRead(id, application: window.application, snapshot: snapshot))
    }

    private func forget(_ id: WindowID) {
        if let window = windows.removeValue(forKey: id) { g_object_unref(window.accessible) }
        pending.remove(id)
    }

    /// The window `accessible` is in (the ancestor whose parent is the application), with a
    /// reference the caller releases; nil for the desktop and applications themselves.
    private func window(of accessible: UnsafeMutablePointer<AtspiAccessible>) -> UnsafeMutablePointer<AtspiAccessible>? {
        var current = accessible
        g_object_ref(current)
        for _ in 0..<reader.maximumDepth {
            guard let parent = atspi_accessible_get_parent(current, nil) else {
                g_object_unref(current)
                return nil
            }
            if atspi_accessible_get_role(parent, nil) == ATSPI_ROLE_APPLICATION {
                g_object_unref(parent)
                return current
            }
            g_object_unref(current)
            current = parent
        }
        g_object_unref(current)
        return nil
    }

    private func identify(_ window: UnsafeMutablePointer<AtspiAccessible>) -> WindowID? {
        guard let bus = narrator_atspi_bus_name(window), let path = narrator_atspi_path(window) else { return nil }
        return WindowID(application: String(cString: bus), path: String(cString: path))
    }

    // MARK: Events

    private func handle(_ event: UnsafeMutablePointer<AtspiEvent>) {
        let type = event.pointee.type.map { String(cString: $0) } ?? ""
        guard let source = event.pointee.source else { return }
        // The registry reports applications coming and going as the desktop's children.
        if type.hasPrefix("object:children-changed"), atspi_accessible_get_role(source, nil) == ATSPI_ROLE_DESKTOP_FRAME {
            rescan()
            return
        }
        if type == "window:create" {
            rescan()
            return
        }
        guard let window = window(of: source) else { return }
        defer { g_object_unref(window) }
        guard let id = identify(window) else { return }
        if type == "window:destroy" {
            forget(id)
            carryOut(mirror.windowGone(id))
            return
        }
        if windows[id] == nil {
            // A window not seen yet (a dialog that just opened): mirrored at once.
            g_object_ref(window)
            let application = atspi_accessible_get_application(window, nil)
            let name = reader.string(application.flatMap { atspi_accessible_get_name($0, nil) })
            if let application { g_object_unref(application) }
            windows[id] = (window, name)
            read(id)
        }
        if type == "window:activate" {
            if pending.contains(id) { read(id) }
            carryOut(mirror.windowActivated(id))
            return
        }
        if type == "object:state-changed:focused" {
            guard event.pointee.detail1 == 1, let path = narrator_atspi_path(source).map({ String(cString: $0) }) else { return }
            // What changed with the focus (a state, a new page) is read first, so the stop exists.
            if pending.contains(id) { read(id) }
            carryOut(mirror.focusMoved(id, path: path))
            return
        }
        pending.insert(id)
        armFlush()
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
        for id in pending.sorted(by: { $0.description < $1.description }) { read(id) }
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
            if purpose.hasPrefix("update "), let id = windows.keys.first(where: { mirror.trees[$0] == String(purpose.dropFirst(7)) }) {
                carryOut(mirror.resend(id))
            }
        }
    }

    // MARK: Effects

    private func carryOut(_ effects: [ATSPIMirror.Effect]) {
        for effect in effects {
            do {
                switch effect {
                case .register, .update, .unregister, .focus:
                    // While narratord is away its share waits: reconnecting registers every window whole.
                    guard let daemon else { continue }
                    try send(effect, to: daemon)
                case .perform(let window, let path, let action):
                    act(in: window, on: path, "perform \(action)") { accessible in
                        guard let iface = atspi_accessible_get_action_iface(accessible) else { return false }
                        defer { g_object_unref(iface) }
                        let count = atspi_action_get_n_actions(iface, nil)
                        guard let index = (0..<max(0, count)).first(where: { reader.string(atspi_action_get_action_name(iface, $0, nil)) == action }) else {
                            return false
                        }
                        return atspi_action_do_action(iface, index, nil) != 0
                    }
                case .setValue(let window, let path, let value):
                    act(in: window, on: path, "set the value \(value)") { accessible in
                        guard let iface = atspi_accessible_get_value_iface(accessible) else { return false }
                        defer { g_object_unref(iface) }
                        return atspi_value_set_current_value(iface, value, nil) != 0
                    }
                case .grabFocus(let window, let path):
                    act(in: window, on: path, "grab focus") { accessible in
                        guard let iface = atspi_accessible_get_component_iface(accessible) else { return false }
                        defer { g_object_unref(iface) }
                        return atspi_component_grab_focus(iface, nil) != 0
                    }
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
            try daemon.send(.register(document: raw, ephemeral: true), purpose: "register \(document.name)")
        case .update(let tree, let update):
            try daemon.send(.update(tree: tree, update: update, announce: false, notify: nil), purpose: "update \(tree)")
        case .unregister(let tree):
            try daemon.send(.unregister(tree: tree), purpose: "unregister \(tree)")
        case .focus(let tree, let element):
            try daemon.send(.focus(tree: tree, element: element), purpose: "focus \(tree) \(element ?? "(the tree)")")
        case .perform, .setValue, .grabFocus:
            return
        }
    }

    /// Finds the element at `path` in `window` and runs `body` on it; says so when it could not.
    private func act(in window: WindowID, on path: String, _ what: String, _ body: (UnsafeMutablePointer<AtspiAccessible>) -> Bool) {
        guard let root = windows[window]?.accessible, let element = find(path, under: root, depth: 0) else {
            log("narrator-atspi: cannot \(what): \(path) is no longer in \(window)")
            return
        }
        defer { g_object_unref(element) }
        if !body(element) { log("narrator-atspi: could not \(what) on \(path) in \(window)") }
    }

    /// The accessible at `path` in the subtree of `accessible`, with a reference the caller releases.
    private func find(_ path: String, under accessible: UnsafeMutablePointer<AtspiAccessible>, depth: Int) -> UnsafeMutablePointer<AtspiAccessible>? {
        if narrator_atspi_path(accessible).map({ String(cString: $0) }) == path {
            g_object_ref(accessible)
            return accessible
        }
        guard depth < reader.maximumDepth else { return nil }
        for child in reader.children(of: accessible) {
            defer { g_object_unref(child) }
            if let found = find(path, under: child, depth: depth + 1) { return found }
        }
        return nil
    }
}
