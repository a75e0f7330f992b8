import NarratorDBus
extension DBusFailure {
    /// An error reply's reason: the application gone from the bus (the bus says so for it), or its own error.
    public init(errorName: String?, message: String) {
        switch errorName ?? "" {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner", "org.freedesktop.DBus.Error.NoReply":
            self = .gone
        default:
            self = .error(name: errorName ?? "", message: message)
        }
    }

    /// A reply's answer: its arguments, or its error's reason.
    public static func answer(of reply: DBusIncoming) -> Result<DBusValue, DBusFailure> {
        reply.kind == .error ? .failure(DBusFailure(errorName: reply.errorName, message: reply.errorMessage)) : .success(reply.body)
    }
}
