import CAtspi
import NarratorCore
import Synchronization

/// Takes the replies to the bridge's calls off the connection on GDBus's worker thread, decodes
/// them there, and hands them to the main loop in batches: one wake-up of the main loop for
/// every reply that came while it was busy, instead of GDBus's one task and one wake-up per
/// reply. Reading a 10,000-object page asks some 90,000 questions, and those hand-offs, not the
/// questions, were what the read cost.
///
/// Only the replies to calls sent through ``send(_:on:)`` are taken (the serials it recorded);
/// every other message goes on to GDBus as before. Unchecked: what the two threads share is
/// behind the mutex, and `deliver` runs only on the main loop's thread (from ``drain()``).
final class ReplyRouter: @unchecked Sendable {
    typealias Reply = (serial: UInt32, result: Result<DBusValue, DBusFailure>)

    private struct Shared {
        /// Serials of calls whose replies are taken here.
        var awaited: Set<UInt32> = []
        /// Replies taken and not yet handed to the main loop.
        var taken: [Reply] = []
        /// A drain of `taken` is scheduled on the main loop.
        var drainScheduled = false
    }

    private let shared = Mutex(Shared())
    /// More calls out than this, and replies are handed over in batches.
    static let batchingThreshold = 64
    /// Runs on the main loop's thread with every reply taken since the last drain; set once, by
    /// ``install(on:deliver:)``, before any call is sent.
    private var deliver: ([Reply]) -> Void = { _ in }

    /// Sends `message` on `connection` and awaits its reply here. The serial is recorded under
    /// the same lock the worker thread takes to look it up, so that a reply quicker than the
    /// recording is still recognised. The serial, or why GDBus could not send it.
    func send(_ message: OpaquePointer, on connection: OpaquePointer) -> Result<UInt32, DBusFailure> {
        shared.withLock { shared in
            var serial: UInt32 = 0
            var error: UnsafeMutablePointer<GError>?
            guard g_dbus_connection_send_message(connection, message, G_DBUS_SEND_MESSAGE_FLAGS_NONE, &serial, &error) != 0 else {
                let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
                if let error { g_error_free(error) }
                return .failure(.error(name: "", message: "cannot send: \(reason)"))
            }
            shared.awaited.insert(serial)
            return .success(serial)
        }
    }

    /// Stops awaiting `serials` (given up on): a reply that still comes goes to GDBus, which drops it.
    func forget(_ serials: [UInt32]) {
        shared.withLock { shared in
            for serial in serials { shared.awaited.remove(serial) }
        }
    }

    /// Installs the filter on `connection`, handing replies to `deliver`; the filter holds this
    /// router until GDBus lets it go.
    func install(on connection: OpaquePointer, deliver: @escaping ([Reply]) -> Void) -> UInt32 {
        self.deliver = deliver
        return g_dbus_connection_add_filter(
            connection,
            { _, message, incoming, context in
                guard let message, let context else { return message }
                let router = Unmanaged<ReplyRouter>.fromOpaque(context).takeUnretainedValue()
                return router.filter(message, incoming: incoming != 0)
            }, Unmanaged.passRetained(self).toOpaque(),
            { context in
                guard let context else { return }
                Unmanaged<ReplyRouter>.fromOpaque(context).release()
            })
    }

    /// On the worker thread: a reply awaited here is decoded, queued and consumed (nil); any
    /// other message is returned to GDBus untouched.
    private func filter(_ message: OpaquePointer, incoming: Bool) -> OpaquePointer? {
        guard incoming else { return message }
        let type = g_dbus_message_get_message_type(message)
        guard type == G_DBUS_MESSAGE_TYPE_METHOD_RETURN || type == G_DBUS_MESSAGE_TYPE_ERROR else { return message }
        let serial = g_dbus_message_get_reply_serial(message)
        guard shared.withLock({ $0.awaited.remove(serial) != nil }) else { return message }
        let result = Self.decode(message, isError: type == G_DBUS_MESSAGE_TYPE_ERROR)
        g_object_unref(UnsafeMutableRawPointer(message))
        // How long a drain to be scheduled waits (nil: one is already): while many calls are out (a
        // bulk read), it waits a millisecond so that the replies coming meanwhile are handed over
        // with this one, and the calls their answers lead to go out together: one wake-up of each
        // thread for many replies, not for each.
        let wait: UInt32? = shared.withLock { shared in
            shared.taken.append((serial, result))
            guard !shared.drainScheduled else { return nil }
            shared.drainScheduled = true
            return shared.awaited.count > Self.batchingThreshold ? 1 : 0
        }
        if let wait {
            // Attached to the main loop's (default) context from this thread, which wakes it.
            _ = g_timeout_add_full(
                G_PRIORITY_DEFAULT, wait,
                { context in
                    guard let context else { return 0 }
                    Unmanaged<ReplyRouter>.fromOpaque(context).takeUnretainedValue().drain()
                    return 0
                }, Unmanaged.passRetained(self).toOpaque(),
                { context in
                    guard let context else { return }
                    Unmanaged<ReplyRouter>.fromOpaque(context).release()
                })
        }
        return nil
    }

    /// On the main loop: hands over every reply taken so far.
    private func drain() {
        let replies = shared.withLock { shared in
            defer {
                shared.taken = []
                shared.drainScheduled = false
            }
            return shared.taken
        }
        deliver(replies)
    }

    /// A reply's out arguments, or its error as the bridge names failures.
    private static func decode(_ message: OpaquePointer, isError: Bool) -> Result<DBusValue, DBusFailure> {
        let body = g_dbus_message_get_body(message)
        guard isError else { return .success(body.map { DBusValue.decode($0) } ?? .structure([])) }
        let name = g_dbus_message_get_error_name(message).map { String(cString: $0) } ?? ""
        let text = body.map { DBusValue.decode($0) }?[0]?.string ?? ""
        return .failure(ATSPIBus.failure(errorName: name, message: text))
    }
}
