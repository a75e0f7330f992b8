import CAtspi
import NarratorCore

/// Every application on the desktop read at once, each in bulk (``ApplicationReader``): what
/// `narrator-atspi dump` prints and the benchmark times. Runs a GLib main loop until the last
/// reply is in, so it must be called on the thread that owns the bus.
enum DesktopRead {
    /// The applications in the registry's order, with their windows; an application that hung
    /// or left during the read is reported through `log` and left out.
    static func all(bus: ATSPIBus, log: (String) -> Void) -> [(name: String, windows: [AccessibleSnapshot])] {
        // A listener, as every AT-SPI client has: GTK serves its cache (GetItems) only once one
        // is registered, and the registry tells it before this read's first question arrives.
        let listener = atspi_event_listener_new({ event, _ in
            if let event { g_boxed_free(atspi_event_get_type(), event) }
        }, nil, nil)
        defer { g_object_unref(listener) }
        atspi_event_listener_register(listener, "object:state-changed:focused", nil)
        let loop = g_main_loop_new(nil, 0)
        defer { g_main_loop_unref(loop) }
        var order: [String] = []
        var outcomes: [String: ATSPIApplicationRead.Outcome] = [:]
        var listed = false
        var failure: String?
        func finish() {
            if listed, outcomes.count == order.count { g_main_loop_quit(loop) }
        }
        bus.send(ATSPIRequest.children(ATSPIApplicationRead.root).call, to: "org.a11y.atspi.Registry") { reply in
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
                failure = "\(error)"
            }
            finish()
        }
        g_main_loop_run(loop)
        if let failure { log("narrator-atspi: the registry did not list the desktop's applications: \(failure)") }
        return order.compactMap { name in
            switch outcomes[name] {
            case .read(let title, let windows)?: return (title, windows)
            case .unresponsive?: log("narrator-atspi: \(name) did not answer within \(bus.timeoutMilliseconds) ms; left out")
            case .gone?, nil: break
            }
            return nil
        }
    }
}
