import CAtspi
import Glibc
import NarratorCore
import NarratorSystem

/// The bridge's own GDBus connection to the accessibility bus: method calls sent without waiting,
/// their replies decoded into ``DBusValue``s and delivered on the GLib main loop's thread, the one
/// thread that uses this object. libatspi's calls block until each reply; these do not, so a
/// hundred questions cost one round trip and a hung application holds up no one but itself.
public final class ATSPIBus {
    /// Why the bus could not be reached.
    public struct ConnectError: Error, CustomStringConvertible {
        public let description: String
    }

    private let connection: OpaquePointer
    /// A call waiting for its reply: when to give up on it, and whom to tell.
    private struct Pending {
        var deadline: MonotonicInstant
        var completion: (Result<DBusValue, DBusFailure>) -> Void
    }

    /// Calls sent and not yet answered, by serial; their replies come through `router`.
    private var pending: [UInt32: Pending] = [:]
    private let router: ReplyRouter
    private var filter: UInt32 = 0
    /// The deadline the timeout timer is armed for, if it is.
    private var timerDeadline: MonotonicInstant?
    /// The bus's address, for messages.
    public let address: String
    /// How long a call may wait for its reply: an application that takes longer is hung.
    public let timeoutMilliseconds: Int32

    /// Connects to the accessibility bus: `AT_SPI_BUS_ADDRESS` when set, else the address the
    /// session bus's `org.a11y.Bus` gives (what every AT-SPI2 client does).
    public init(environment: [String: String], timeoutMilliseconds: Int32 = 2_000) throws(ConnectError) {
        self.timeoutMilliseconds = timeoutMilliseconds
        let address: String
        if let given = environment["AT_SPI_BUS_ADDRESS"], !given.isEmpty {
            address = given
        } else {
            address = try Self.addressFromSessionBus()
        }
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            throw ConnectError(description: "cannot connect to the accessibility bus at \(address): \(Self.message(error))")
        }
        self.connection = connection
        self.address = address
        router = ReplyRouter()
        filter = router.install(on: connection) { [weak self] replies in self?.deliver(replies) }
    }

    deinit {
        g_dbus_connection_remove_filter(connection, filter)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// Calls `body` on this thread when the bus goes away (the launcher stopped or crashed).
    func whenClosed(_ body: @escaping () -> Void) {
        let box = Trampoline { _ in body(); return true }
        typealias Handler = @convention(c) (OpaquePointer?, gboolean, UnsafeMutablePointer<GError>?, UnsafeMutableRawPointer?) -> Void
        let handler: Handler = { _, _, _, context in _ = Trampoline.call(context) }
        _ = g_signal_connect_data(
            UnsafeMutableRawPointer(connection), "closed", unsafeBitCast(handler, to: GCallback.self), box.retained,
            { context, _ in Trampoline.release(context) }, G_CONNECT_DEFAULT)
    }

    /// Says on the session bus that a screen reader runs (`org.a11y.Status`: `IsEnabled` and
    /// `ScreenReaderEnabled`), as Orca does: toolkits that turn their accessibility on only when
    /// asked (Firefox, Chromium) then do, at their start. The error, if any, for the journal.
    public static func announceScreenReader() -> String? {
        var error: UnsafeMutablePointer<GError>?
        guard let session = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else { return "no session bus: \(message(error))" }
        defer { g_object_unref(UnsafeMutableRawPointer(session)) }
        for property in ["IsEnabled", "ScreenReaderEnabled"] {
            let value = g_variant_new_variant(g_variant_new_boolean(1))
            var arguments: [OpaquePointer?] = [g_variant_new_string("org.a11y.Status"), g_variant_new_string(property), value]
            let tuple = arguments.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
            guard let reply = g_dbus_connection_call_sync(
                session, "org.a11y.Bus", "/org/a11y/bus", "org.freedesktop.DBus.Properties", "Set", tuple, nil, G_DBUS_CALL_FLAGS_NONE, 2_000, nil, &error)
            else { return "org.a11y.Status.\(property) could not be set: \(message(error))" }
            g_variant_unref(reply)
        }
        return nil
    }

    private static func addressFromSessionBus() throws(ConnectError) -> String {
        var error: UnsafeMutablePointer<GError>?
        guard let session = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw ConnectError(description: "no session bus (is DBUS_SESSION_BUS_ADDRESS set?): \(message(error))")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(session)) }
        guard let reply = g_dbus_connection_call_sync(
            session, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", nil, nil, G_DBUS_CALL_FLAGS_NONE, 5_000, nil, &error)
        else {
            throw ConnectError(description: "the session bus has no accessibility bus (is at-spi-bus-launcher running?): \(message(error))")
        }
        defer { g_variant_unref(reply) }
        guard let address = DBusValue.decode(reply)[0]?.string, !address.isEmpty else {
            throw ConnectError(description: "org.a11y.Bus gave no address")
        }
        return address
    }

    /// Sends `call` to the application `bus` and hands its reply (the tuple of out arguments) to
    /// `completion` on this thread once it comes, or the failure once `timeout` (by default the
    /// bus's own) passes.
    public func send(
        _ call: DBusCall, to bus: String, timeout: Duration? = nil, completion: @escaping (Result<DBusValue, DBusFailure>) -> Void
    ) {
        guard let message = g_dbus_message_new_method_call(bus, call.path, call.interface, call.method) else {
            completion(.failure(.error(name: "", message: "cannot build the call \(call.interface).\(call.method) to \(bus)")))
            return
        }
        defer { g_object_unref(UnsafeMutableRawPointer(message)) }
        if let parameters = Self.parameters(call.arguments) { g_dbus_message_set_body(message, parameters) }
        g_dbus_message_set_flags(message, G_DBUS_MESSAGE_FLAGS_NO_AUTO_START)
        switch router.send(message, on: connection) {
        case .failure(let failure):
            completion(.failure(failure))
        case .success(let serial):
            let deadline = MonotonicClock.now() + (timeout ?? .milliseconds(Int(timeoutMilliseconds)))
            pending[serial] = Pending(deadline: deadline, completion: completion)
            armTimeout(for: deadline)
        }
    }

    /// The replies the router took, handed to their calls' completions in the order they came.
    private func deliver(_ replies: [ReplyRouter.Reply]) {
        for reply in replies {
            guard let call = pending.removeValue(forKey: reply.serial) else { continue }
            call.completion(reply.result)
        }
    }

    /// Arms the one timer for the earliest deadline of the calls waiting, unless it fires sooner.
    private func armTimeout(for deadline: MonotonicInstant) {
        if let armed = timerDeadline, armed <= deadline { return }
        timerDeadline = deadline
        let now = MonotonicClock.now()
        let milliseconds = deadline > now ? UInt32(clamping: (deadline.nanoseconds - now.nanoseconds + 999_999) / 1_000_000) : 0
        Trampoline.after(milliseconds: milliseconds) { [weak self] in self?.expire(armedFor: deadline) }
    }

    /// Fails every call past its deadline with `.timedOut`, then arms the timer for the next.
    private func expire(armedFor deadline: MonotonicInstant) {
        guard timerDeadline == deadline else { return }
        timerDeadline = nil
        let now = MonotonicClock.now()
        let late = pending.filter { $0.value.deadline <= now }
        router.forget(Array(late.keys))
        for serial in late.keys.sorted() {
            pending.removeValue(forKey: serial)?.completion(.failure(.timedOut))
        }
        if let next = pending.values.map(\.deadline).min() { armTimeout(for: next) }
    }

    /// `call`, waiting for its reply: for the benchmark's one-property baseline, never the bridge.
    public func sendAndWait(_ call: DBusCall, to bus: String) -> Result<DBusValue, DBusFailure> {
        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_connection_call_sync(
            connection, bus, call.path, call.interface, call.method, Self.parameters(call.arguments), nil, G_DBUS_CALL_FLAGS_NO_AUTO_START,
            timeoutMilliseconds, nil, &error)
        else { return .failure(Self.failure(error)) }
        defer { g_variant_unref(reply) }
        return .success(DBusValue.decode(reply))
    }

    /// The bus name of the application called `name`, once the registry lists it (asked every
    /// 100 ms, up to `timeout`), or nil: for the benchmarks and tests, which wait for an
    /// application they started. It blocks; the bridge never waits so.
    public func application(named name: String, timeout: Duration = .seconds(20)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if case .success(let listed) = sendAndWait(ATSPIRequest.children(ATSPIApplicationRead.root).call, to: ATSPIBridge.registry) {
                for candidate in (listed[0]?.items ?? []).compactMap({ $0[0]?.string }) {
                    if case .success(let named) = sendAndWait(ATSPIRequest.name(ATSPIApplicationRead.root).call, to: candidate), named[0]?.string == name {
                        return candidate
                    }
                }
            }
            usleep(100_000)
        }
        return nil
    }

    /// The arguments as a (floating) tuple, or nil for none.
    private static func parameters(_ arguments: [DBusArgument]) -> OpaquePointer? {
        guard !arguments.isEmpty else { return nil }
        var children: [OpaquePointer?] = arguments.map { argument in
            switch argument {
            case .string(let s): return g_variant_new_string(s)
            case .int32(let i): return g_variant_new_int32(i)
            case .uint32(let u): return g_variant_new_uint32(u)
            case .double(let d): return g_variant_new_double(d)
            case .variantDouble(let d): return g_variant_new_variant(g_variant_new_double(d))
            case .strings(let strings):
                var pointers = strings.map { strdup($0) }
                defer { pointers.forEach { free($0) } }
                return pointers.withUnsafeMutableBufferPointer { buffer in
                    buffer.withMemoryRebound(to: UnsafePointer<gchar>?.self) { g_variant_new_strv($0.baseAddress, gssize($0.count)) }
                }
            }
        }
        return children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// A failed call's reason: no reply in time, the application gone from the bus, or its error.
    private static func failure(_ error: UnsafeMutablePointer<GError>?) -> DBusFailure {
        guard let error else { return .error(name: "", message: "no reply and no error") }
        defer { g_error_free(error) }
        if error.pointee.domain == g_io_error_quark(), error.pointee.code == Int32(G_IO_ERROR_TIMED_OUT.rawValue) { return .timedOut }
        var name = ""
        if let remote = g_dbus_error_get_remote_error(error) {
            name = String(cString: remote)
            g_free(remote)
        }
        return failure(errorName: name, message: error.pointee.message.map { String(cString: $0) } ?? "")
    }

    /// An error reply's reason: the application gone from the bus (the bus says so for it), or its own error.
    static func failure(errorName name: String, message: String) -> DBusFailure {
        switch name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner", "org.freedesktop.DBus.Error.NoReply":
            return .gone
        default:
            return .error(name: name, message: message)
        }
    }

    private static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}

extension DBusValue {
    /// A GVariant as a plain value (the variant is not consumed).
    static func decode(_ variant: OpaquePointer) -> DBusValue {
        let kind = g_variant_classify(variant).rawValue
        func ascii(_ c: Character) -> UInt32 { UInt32(c.asciiValue ?? 0) }
        switch kind {
        case ascii("b"): return .bool(g_variant_get_boolean(variant) != 0)
        case ascii("y"): return .unsigned(UInt64(g_variant_get_byte(variant)))
        case ascii("n"): return .integer(Int64(g_variant_get_int16(variant)))
        case ascii("q"): return .unsigned(UInt64(g_variant_get_uint16(variant)))
        case ascii("i"), ascii("h"): return .integer(Int64(g_variant_get_int32(variant)))
        case ascii("u"): return .unsigned(UInt64(g_variant_get_uint32(variant)))
        case ascii("x"): return .integer(Int64(g_variant_get_int64(variant)))
        case ascii("t"): return .unsigned(UInt64(g_variant_get_uint64(variant)))
        case ascii("d"): return .double(g_variant_get_double(variant))
        case ascii("s"), ascii("o"), ascii("g"): return .string(String(cString: g_variant_get_string(variant, nil)))
        case ascii("v"):
            guard let inner = g_variant_get_variant(variant) else { return .variant(.structure([])) }
            defer { g_variant_unref(inner) }
            return .variant(decode(inner))
        default:
            // Arrays, tuples, dictionary entries and maybes: their children in order.
            let children = (0..<g_variant_n_children(variant)).map { index -> DBusValue in
                guard let child = g_variant_get_child_value(variant, index) else { return .structure([]) }
                defer { g_variant_unref(child) }
                return decode(child)
            }
            return kind == ascii("a") ? .array(children) : .structure(children)
        }
    }
}
