import CAtspi
import Foundation
import NarratorATSPI
import NarratorCore
import NarratorDesktopHarness
import NarratorTestSupport
import Testing

/// The bridge's own connection to the accessibility bus (``ATSPIBus`` over its own socket, in
/// D-Bus's wire format), against zenity on a real bus on a headless desktop: every call is
/// answered exactly once, calls that wait on the same connection still get their replies, a name
/// no longer on the bus and a stopped application each end their calls as the bridge needs.
@Suite(
    "ATSPIBus: the bridge's connection answers every call once",
    .serialized,
    .enabled(if: HeadlessDesktop.isInstalled && FileManager.default.isExecutableFile(atPath: "/usr/bin/zenity"),
             "the headless desktop or zenity is not installed (make test-deps)")
)
struct ATSPIBusTests {
    /// Runs the main loop (this thread's, the one the bus delivers on) until `done` or 10 s.
    func loop(until done: () -> Bool) {
        let deadline = ContinuousClock.now + .seconds(10)
        while !done(), ContinuousClock.now < deadline {
            if g_main_context_iteration(nil, 0) == 0 { usleep(1_000) }
        }
    }


    @Test("many calls at once are each answered once, with calls that wait on the same connection among them; a name gone from the bus is .gone; a stopped application's call ends at its bound while others are answered")
    func everyCallAnsweredOnce() throws {
        let desktop = try HeadlessDesktop()
        defer { desktop.stop() }
        let zenity = try desktop.launch("/usr/bin/zenity", ["--question", "--text", "Delete photo?"], name: "zenity")
        // The accessibility bus's address, as the desktop's session bus gives it (this process's
        // own environment has no session bus of the desktop's).
        let address = try CompletedRun.run(
            "/usr/bin/dbus-send", ["--session", "--print-reply=literal", "--dest=org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress"],
            environment: desktop.environment
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        var environment = desktop.environment
        environment["AT_SPI_BUS_ADDRESS"] = address
        let bus = try ATSPIBus(environment: environment)
        let name = try #require(bus.application(named: "zenity"), "zenity did not appear on the accessibility bus")

        var answers: [Int: [Result<DBusValue, DBusFailure>]] = [:]
        let count = 500
        for index in 0..<count {
            bus.send(ATSPIRequest.name(ATSPIApplicationRead.root).call, to: name) { answers[index, default: []].append($0) }
            if index == count / 2 {
                // A call that waits, on the connection whose replies the router filters.
                let waited = bus.sendAndWait(ATSPIRequest.role(ATSPIApplicationRead.root).call, to: name)
                #expect((try? waited.get())?[0]?.int == Int(ATSPIRole.application.code), "\(waited)")
            }
        }
        loop { answers.count == count }
        #expect(answers.count == count)
        #expect(answers.values.allSatisfy { $0.count == 1 && (try? $0[0].get())?[0]?.string == "zenity" })

        var gone: Result<DBusValue, DBusFailure>?
        bus.send(ATSPIRequest.name(ATSPIApplicationRead.root).call, to: ":1.9999") { gone = $0 }
        loop { gone != nil }
        #expect(gone.map { if case .failure(.gone) = $0 { true } else { false } } == true, "\(String(describing: gone))")

        // Stopped: its call ends as timed out at its bound; the registry answers meanwhile.
        try zenity.send(SIGSTOP)
        defer { _ = try? zenity.send(SIGCONT) }
        var stopped: Result<DBusValue, DBusFailure>?
        var registry: Result<DBusValue, DBusFailure>?
        bus.send(ATSPIRequest.name(ATSPIApplicationRead.root).call, to: name, timeout: .milliseconds(400)) { stopped = $0 }
        bus.send(ATSPIRequest.children(ATSPIApplicationRead.root).call, to: ATSPIBridge.registry) { registry = $0 }
        loop { stopped != nil }
        #expect(registry.map { (try? $0.get()) != nil } == true, "the registry's answer came before the stopped application's bound")
        #expect(stopped.map { if case .failure(.timedOut) = $0 { true } else { false } } == true, "\(String(describing: stopped))")
    }
}
