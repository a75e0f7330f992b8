import CAtspi
import Glibc
import NarratorBridge
import NarratorKeyboard
import NarratorSystem

/// `narrator-atspi run`'s shell around ``ATSPIBridge``: on one thread running GLib's main loop
/// (libatspi's events, the replies of the bridge's own D-Bus connection, narratord's socket and
/// the timers all arrive there), it turns each callback into a ``BridgeInput`` and carries out
/// the ``BridgeEffect``s the core returns. It decides nothing, and nothing here waits on an
/// application or on narratord: every question to an application is an asynchronous call with a
/// bound, so a hung application is a question whose answer is `.timedOut`, and holds up no other;
/// requests to narratord are written as its socket takes them. (Looking for a new accessibility
/// bus, once the old one went away with every application on it, asks the session bus for its
/// address synchronously: there is no one else to serve then.)
final class BridgeShell {
    /// The bridge's core, fed through the one driver every shell uses (``EffectDriver``): an
    /// effect's outcome known at once (a connection made) is handled after the effects of the
    /// input before it, in order.
    private let driver: EffectDriver<ATSPIBridge>
    private var bus: ATSPIBus
    /// The connection to narratord; nil while it is away.
    private var daemon: DaemonLink?
    private let environment: [String: String]
    private let log: (String) -> Void
    /// A watch waits for narratord's socket to take the rest of the requests.
    private var flushing = false
    private var listener: UnsafeMutablePointer<AtspiEventListener>?
    private var keys: UnsafeMutablePointer<AtspiDeviceListener>?
    /// Set while a key event is fed when the core takes it.
    private var keyTaken = false
    private let capsLock = CapsLockControl()
    private let keySource: BridgeCommand.KeySource
    /// The X server's keyboard, when keys come from it.
    private var xKeyboard: XInputKeyboard?
    /// Keycodes whose grab another client holds, said once each.
    private var refusedGrabs: Set<UInt8> = []

    init(daemon: DaemonLink, bus: ATSPIBus, socket: String, keys: BridgeCommand.KeySource, environment: [String: String], log: @escaping (String) -> Void) {
        self.daemon = daemon
        keySource = keys
        self.bus = bus
        bus.noticed = log
        self.environment = environment
        self.log = log
        driver = EffectDriver(ATSPIBridge(configuration: ATSPIBridge.Configuration(socket: socket)))
    }

    deinit {
        if let listener { g_object_unref(listener) }
        if let keys { g_object_unref(keys) }
    }

    /// Subscribes to the desktop's events and runs until the process is stopped.
    func run() {
        let box = Trampoline { [unowned self] event in
            guard let event = event?.assumingMemoryBound(to: AtspiEvent.self) else { return true }
            if let decoded = Self.decode(event) { feed(.event(decoded)) }
            g_boxed_free(atspi_event_get_type(), event)
            return true
        }
        listener = atspi_event_listener_new({ event, context in _ = Trampoline.call(context, UnsafeMutableRawPointer(event)) }, box.retained, Trampoline.release)
        for type in ATSPIEvent.subscribed { atspi_event_listener_register(listener, type, nil) }
        readKeymap()
        // SIGHUP (`systemctl --user reload narrator-atspi`) reads the keymap again.
        Trampoline.onSignal(SIGHUP) { [unowned self] in readKeymap() }
        switch keySource {
        case .atspi:
            listenForKeys()
        case .x11:
            do {
                try listenToXKeyboard()
            } catch {
                log("narrator-atspi: keys come from AT-SPI2's keystroke listener, which holds each key until Narrator answers: \(error)")
                listenForKeys()
            }
        }
        if let daemon { watch(daemon) }
        bus.whenClosed { [unowned self] in feed(.busClosed) }
        bus.refusedLate = { [unowned self] application, reason in feed(.refusedLate(application: application, reason: reason)) }
        feed(.started)
        atspi_event_main()
    }

    /// The event's facts, copied out of libatspi's structures (no call is made to get them).
    private static func decode(_ event: UnsafeMutablePointer<AtspiEvent>) -> ATSPIEvent? {
        guard let type = event.pointee.type.map({ String(cString: $0) }), let source = event.pointee.source,
            let name = narrator_atspi_bus_name(source).map({ String(cString: $0) }),
            let path = narrator_atspi_path(source).map({ String(cString: $0) })
        else { return nil }
        let object = narrator_atspi_event_object(event).flatMap { narrator_atspi_path($0) }.map { String(cString: $0) }
        let text = narrator_atspi_event_text(event).map { String(cString: $0) }
        return ATSPIEvent(
            type, application: name, path: path, detail1: Int(event.pointee.detail1), detail2: Int(event.pointee.detail2), object: object, text: text)
    }

    /// Listens to every key the user presses and releases, for every combination of Shift,
    /// Caps Lock, Control, Alt and Num Lock, synchronously and able to take it: the toolkit holds
    /// each key until the core says whether Narrator takes it (``BridgeEffect/takeKey``), and
    /// gives the application every other one unchanged. GTK 3 and Firefox send their keys here;
    /// GTK 4 sends none, and a registration the registry refuses is said once.
    private func listenForKeys() {
        let box = Trampoline { [unowned self] event in
            guard let event = event?.assumingMemoryBound(to: AtspiDeviceEvent.self) else { return false }
            let kind: KeyEvent.Kind = event.pointee.type == ATSPI_KEY_RELEASED_EVENT ? .release : .press
            let key = KeyEvent(
                kind, Keysym(UInt32(truncatingIfNeeded: event.pointee.id)), xModifiers: UInt32(truncatingIfNeeded: event.pointee.modifiers),
                at: MonotonicClock.now())
            keyTaken = false
            feed(.keyEvent(key, Self.localTime()))
            return keyTaken
        }
        keys = atspi_device_listener_new({ event, context in Trampoline.call(context, UnsafeMutableRawPointer(event)) ? 1 : 0 }, box.retained, Trampoline.release)
        let kinds = UInt32(1 << ATSPI_KEY_PRESSED_EVENT.rawValue) | UInt32(1 << ATSPI_KEY_RELEASED_EVENT.rawValue)
        let sync = AtspiKeyListenerSyncType(ATSPI_KEYLISTENER_SYNCHRONOUS.rawValue | ATSPI_KEYLISTENER_CANCONSUME.rawValue)
        for mask in 0..<32 {
            var error: UnsafeMutablePointer<GError>?
            // X's bits: Shift 1, Lock 2, Control 4, Mod1 (Alt) 8, Mod2 (Num Lock) 16.
            let modifiers = AtspiKeyMaskType(mask)
            // Its result says nothing (libatspi 2.46 answers false for a registration that works);
            // an error does.
            _ = atspi_register_keystroke_listener(keys, nil, modifiers, kinds, sync, &error)
            if let error {
                let message = String(cString: error.pointee.message)
                g_error_free(error)
                log("narrator-atspi: the registry does not report keys (\(message)); Narrator's keys do nothing, and caret moves are told by how far they go")
                return
            }
        }
    }

    /// Keys from the X server: every key as a raw event, the keyboard's table for the core, and
    /// each change of the locks and of the mapping. The core answers with the grabs to make.
    private func listenToXKeyboard() throws(XKeyboardUnavailable) {
        let keyboard = try XInputKeyboard.open()
        xKeyboard = keyboard
        feed(.keyboard(keyboard.table()))
        feed(.lockedModifiers(keyboard.initiallyLocked))
        Trampoline.whenReadable(keyboard.fd, first: true) { [unowned self] in
            drainKeyboard()
            return true
        }
    }

    private func drainKeyboard() {
        guard let keyboard = xKeyboard else { return }
        keyboard.drain { event in
            switch event {
            case .key(let keycode, let down, let time):
                feed(.rawKey(keycode, down: down, serverTime: time, Self.localTime()))
            case .locked(let locked): feed(.lockedModifiers(locked))
            case .mappingChanged: feed(.keyboard(keyboard.table()))
            }
        }
    }

    /// The wall clock where the user is, for the time command.
    private static func localTime() -> LocalTime {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return LocalTime(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday), weekday: Int(parts.tm_wday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min))
    }

    /// Reads the keymap file (`$XDG_CONFIG_HOME/narrator/keymap`) for the core.
    private func readKeymap() {
        let path = KeymapFile.path(environment: environment)
        let read: KeymapRead
        do {
            read = .text(String(decoding: try Syscall.readFile(path, limit: KeymapFile.largest), as: UTF8.self))
        } catch where error.code == ENOENT {
            read = .absent
        } catch {
            read = .unreadable("\(error)")
        }
        feed(.keymapRead(path: path, read))
    }

    private func feed(_ input: BridgeInput) {
        driver.feed(input) { carryOut($0) }
    }

    private func carryOut(_ effect: BridgeEffect) {
        switch effect {
        case .ask(let question, let application, let call, let timeout):
            bus.send(call, to: application, timeout: timeout) { [unowned self] reply in feed(.answered(question, reply)) }
        case .request(let request):
            guard let daemon else { return }
            sent(daemon.send(request), on: daemon)
        case .connectToDaemon:
            do {
                let link = try DaemonLink(socket: driver.machine.configuration.socket)
                daemon = link
                watch(link)
                feed(.daemonConnected)
            } catch {
                feed(.daemonUnreachable("\(error)"))
            }
        case .setTimer(let timer, let deadline):
            Trampoline.at(deadline) { [unowned self] in feed(.timerFired(timer)) }
        case .lookForNewBus:
            guard let next = try? ATSPIBus(environment: environment) else {
                feed(.newBus(found: false))
                return
            }
            next.send(ATSPIRequest.children(ATSPIApplicationRead.root).call, to: ATSPIBridge.registry) { [unowned self] reply in
                // The new connection lives until its answer is in.
                withExtendedLifetime(next) {}
                feed(.newBus(found: (try? reply.get()) != nil))
            }
        case .restart:
            // narratord forgets this connection's trees now, before the new process registers its own.
            daemon?.client.close()
            let failure = Syscall.replaceProcess(with: "/proc/self/exe", arguments: CommandLine.arguments)
            log("narrator-atspi: cannot start again (\(failure)); exiting so that systemd starts it")
            exit(4)
        case .journal(let line):
            log(line)
        case .takeKey:
            keyTaken = true
        case .setCapsLock(let on):
            capsLock.set(on)
        case .grabKeys(let grabs):
            guard let keyboard = xKeyboard else { return }
            let refused = Set(keyboard.apply(grabs)).subtracting(refusedGrabs)
            if !refused.isEmpty {
                refusedGrabs.formUnion(refused)
                log("narrator-atspi: another program holds keycodes \(refused.sorted()) (another screen reader?); Narrator cannot take them")
            }
            // Its answers may have brought events into Xlib's queue, where the descriptor does not show them.
            if keyboard.hasQueued { Trampoline.soon { [unowned self] in drainKeyboard() } }
        }
    }

    /// Writes the rest once the socket takes it; a broken connection is narratord gone.
    private func sent(_ outcome: DaemonLink.Sent, on link: DaemonLink) {
        switch outcome {
        case .written:
            return
        case .waiting:
            guard !flushing else { return }
            flushing = true
            Trampoline.whenWritable(link.fd) { [unowned self] in
                guard daemon === link else { return false }
                let outcome = link.flush()
                if case .waiting = outcome { return true }
                flushing = false
                sent(outcome, on: link)
                return false
            }
        case .broken(let reason):
            log("narrator-atspi: could not tell narratord: \(reason)")
            drop(link)
        }
    }

    /// narratord is gone: the connection is closed and the core told.
    private func drop(_ link: DaemonLink) {
        guard daemon === link else { return }
        daemon = nil
        flushing = false
        link.client.close()
        feed(.daemonClosed)
    }

    /// Feeds narratord's lines as they arrive; once it is gone, says so and stops watching.
    private func watch(_ link: DaemonLink) {
        Trampoline.whenReadable(link.fd) { [unowned self] in
            guard daemon === link else { return false }
            guard let lines = link.receive() else {
                drop(link)
                return false
            }
            for line in lines { feed(.daemonLine(line)) }
            return true
        }
    }
}
