import CAtspi
import NarratorBridge
import NarratorDBus

/// What the bridge asks the session bus through GLib (synchronously, at start): where the
/// accessibility bus is, and that a screen reader runs.
extension ATSPIBus {
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

    /// The accessibility bus's address, as the session bus's `org.a11y.Bus` gives it.
    static func addressFromSessionBus() throws(ConnectError) -> String {
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

    /// A GError's text; the error is freed.
    static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
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
