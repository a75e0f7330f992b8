import NarratorBase
@testable import NarratorBridge
import NarratorModel
@testable import NarratorDBus


/// ``BusRoutes`` on a virtual clock, with the values its scenarios name: one application
/// (`:1.7`, GTK 3 with a socket of its own), the registry, and calls told apart by their object.
struct BusRoutesHarness {
    static let application = ":1.7"
    static let address = "unix:path=/tmp/at-spi2-socket-7"
    static let start = MonotonicInstant(nanoseconds: 1_000_000_000)

    var routes: BusRoutes
    var now = start

    init(bound: Duration = .milliseconds(2_000)) {
        routes = BusRoutes(BusRoutes.Configuration(bound: bound))
    }

    mutating func feed(_ input: BusRoutesInput) -> [BusRoutesEffect] {
        routes.handle(input, at: now)
    }

    mutating func advance(by duration: Duration) {
        now = now + duration
    }

    /// Caller `number` asks `application` for the name of its object `number`.
    mutating func call(_ number: UInt64, to application: String = application, timeout: Duration? = nil) -> [BusRoutesEffect] {
        feed(.call(BusCallID(number), Self.request(number), to: application, timeout: timeout))
    }

    static func request(_ number: UInt64) -> DBusCall {
        ATSPIRequest.name("/org/a11y/atspi/accessible/\(number)").call
    }

    /// Caller `number`'s call as the routes send it, made at `made` with the bound (or `timeout`).
    static func outgoing(_ number: UInt64, to application: String = application, madeAt made: MonotonicInstant = start, timeout: Duration = .milliseconds(2_000)) -> BusOutgoing {
        BusOutgoing(ticket: .caller(BusCallID(number)), call: request(number), destination: application, deadline: made + timeout)
    }

    /// The routes' `GetApplicationBusAddress` to `application`.
    static func question(to application: String = application, madeAt made: MonotonicInstant = start, bound: Duration = .milliseconds(2_000)) -> BusOutgoing {
        let call = DBusCall(path: ATSPIApplicationRead.root, interface: "org.a11y.atspi.Application", method: "GetApplicationBusAddress")
        return BusOutgoing(ticket: .routeQuestion(application: application), call: call, destination: application, deadline: made + bound)
    }

    static func reply(to serial: UInt32, _ body: DBusValue = .structure([.string("zenity")])) -> DBusIncoming {
        DBusIncoming(kind: .methodReturn, serial: 900, replySerial: serial, errorName: nil, body: body)
    }

    static func error(to serial: UInt32, _ name: String, _ message: String = "") -> DBusIncoming {
        DBusIncoming(kind: .error, serial: 900, replySerial: serial, errorName: name, body: .structure([.string(message)]))
    }

    /// The bus's `NameOwnerChanged` for `name` leaving it.
    static func departure(of name: String) -> DBusIncoming {
        DBusIncoming(
            kind: .signal, serial: 901, replySerial: nil, errorName: nil, sender: "org.freedesktop.DBus", member: "NameOwnerChanged",
            body: .structure([.string(name), .string(name), .string("")]))
    }

    static let zenity: Result<DBusValue, DBusFailure> = .success(.structure([.string("zenity")]))
    static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"

    /// The application's own socket (connection 1) is open: caller 1's call, held meanwhile,
    /// went there under serial 1. The bus's serial 2 was the question.
    mutating func direct() {
        _ = call(1)
        _ = feed(.sent(Self.question(), on: .bus, serial: 2))
        _ = feed(.received(Self.reply(to: 2, .structure([.string(Self.address)])), on: .bus))
        _ = feed(.opened(BusConnection(1)))
        _ = feed(.sent(Self.outgoing(1), on: BusConnection(1), serial: 1))
    }
}
