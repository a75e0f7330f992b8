import CAtspi
import NarratorBridge
import NarratorDBus

/// Every application on the desktop read at once, each in bulk (``ApplicationReader``): what
/// `narrator-atspi dump` prints and the benchmark times. Runs a GLib main loop until the last
/// reply is in, so it must be called on the thread that owns the bus.
enum DesktopRead {
    /// Why the desktop could not be read at all.
    struct ReadFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// `org.a11y.atspi.Registry.RegisterEvent`: a listener for focus events, on this connection.
    static let registerListener = DBusCall(
        path: "/org/a11y/atspi/registry", interface: "org.a11y.atspi.Registry", method: "RegisterEvent",
        arguments: [.string("object:state-changed:focused"), .strings([]), .string("")])

    /// The applications in the registry's order, with their windows; an application that hung
    /// or left during the read is reported through `log` and left out.
    static func all(bus: ATSPIBus, log: @escaping (String) -> Void) throws(ReadFailure) -> [(name: String, windows: [AccessibleSnapshot])] {
        let loop = g_main_loop_new(nil, 0)
        defer { g_main_loop_unref(loop) }
        var order: [String] = []
        var outcomes: [String: ATSPIApplicationRead.Outcome] = [:]
        var listed = false
        var failure: String?
        func finish() {
            if listed, outcomes.count == order.count { g_main_loop_quit(loop) }
        }
        func list() {
            bus.send(ATSPIRequest.children(ATSPIApplicationRead.root).call, to: ATSPIBridge.registry) { reply in
                listed = true
                switch reply {
                case .success(let value):
                    order = (value[0]?.items ?? []).compactMap { $0[0]?.string }
                    for name in order {
                        _ = ApplicationReader(application: name, bus: bus) { outcome in
                            outcomes[name] = outcome
                            finish()
                        }
                    }
                case .failure(let error):
                    failure = "the registry (\(ATSPIBridge.registry)) did not list the desktop's applications: \(error)"
                }
                finish()
            }
        }
        // A listener, as every AT-SPI client has: GTK serves its cache (GetItems) and Firefox
        // turns its accessibility on only once one is registered, and the registry tells them
        // before it answers.
        bus.send(DesktopRead.registerListener, to: ATSPIBridge.registry) { reply in
            if case .failure(let error) = reply { log("narrator-atspi: the registry did not take an event listener (\(error)); reading without one") }
            list()
        }
        g_main_loop_run(loop)
        if let failure { throw ReadFailure(description: failure) }
        return order.compactMap { name in
            switch outcomes[name] {
            case .read(let title, let windows)?: return (title, windows)
            case .unresponsive?: log("narrator-atspi: \(name) did not answer within \(bus.timeoutMilliseconds) ms; left out")
            case .hostile(let reason)?: log("narrator-atspi: \(name) is left out: \(reason)")
            case .gone?, nil: break
            }
            return nil
        }
    }
}
