import CAtspi
import Foundation
import NarratorATSPI
import NarratorBridge
import NarratorDesktopHarness
import NarratorTestSupport
import Testing
@testable import NarratorDBus

/// The bridge's own connection to the accessibility bus (``ATSPIBus`` over its own socket, in
/// D-Bus's wire format), against zenity on a real bus on a headless desktop: every call is
/// answered exactly once, calls that wait on the same connection still get their replies, a name
/// no longer on the bus and a stopped application each end their calls as the bridge needs.
/// zenity (GTK 3, at-spi2-atk) has a socket of its own, which the bridge then speaks to directly;
/// applications whose own socket misbehaves (Tests/Helpers/atspi/own_socket.py) are read over the
/// bus all the same.
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


    /// The desktop's environment with the accessibility bus's address, as the desktop's session
    /// bus gives it (this process's own environment has no session bus of the desktop's).
    func environment(of desktop: HeadlessDesktop) throws -> [String: String] {
        let address = try CompletedRun.run(
            "/usr/bin/dbus-send", ["--session", "--print-reply=literal", "--dest=org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress"],
            environment: desktop.environment
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        var environment = desktop.environment
        environment["AT_SPI_BUS_ADDRESS"] = address
        return environment
    }

    func name(_ reply: Result<DBusValue, DBusFailure>) -> String? { (try? reply.get())?[0]?.string }
    func isGone(_ reply: Result<DBusValue, DBusFailure>?) -> Bool { if case .failure(.gone)? = reply { true } else { false } }

    @Test("zenity's own socket is spoken to once it is open: each call answered once there; killed with calls out, each of them ends once (answered or .gone), and later calls are .gone")
    func directConnection() throws {
        let desktop = try HeadlessDesktop()
        defer { desktop.stop() }
        let zenity = try desktop.launch("/usr/bin/zenity", ["--question", "--text", "Delete photo?"], name: "zenity")
        let bus = try ATSPIBus(environment: environment(of: desktop))
        let application = try #require(bus.application(named: "zenity"), "zenity did not appear on the accessibility bus")
        var notices: [String] = []
        bus.noticed = { notices.append($0) }

        // The first call asks zenity for its socket, and waits until it is open: it is answered
        // there, so that no later call's reply, over the socket, overtakes an earlier one's over the bus.
        var first: Result<DBusValue, DBusFailure>?
        bus.send(ATSPIRequest.name(ATSPIApplicationRead.root).call, to: application) { first = $0 }
        #expect(bus.directAddress(of: application) == nil)
        loop { first != nil }
        #expect(first.map(name) == "zenity", "\(String(describing: first))")
        let address = try #require(bus.directAddress(of: application), "no direct connection: \(bus.directEndings)")
        #expect(address.hasPrefix("unix:"))

        var answers: [Int: [Result<DBusValue, DBusFailure>]] = [:]
        for index in 0..<300 {
            bus.send(ATSPIRequest.name(ATSPIApplicationRead.root).call, to: application) { answers[index, default: []].append($0) }
        }
        loop { answers.count == 300 }
        #expect(answers.count == 300 && answers.values.allSatisfy { $0.count == 1 && name($0[0]) == "zenity" })

        // Killed while 200 calls are out on its socket: nothing is lost or answered twice.
        var last: [Int: [Result<DBusValue, DBusFailure>]] = [:]
        for index in 0..<200 {
            bus.send(ATSPIRequest.name(ATSPIApplicationRead.root).call, to: application) { last[index, default: []].append($0) }
        }
        _ = try zenity.kill()
        loop { last.count == 200 }
        #expect(last.count == 200)
        #expect(last.values.allSatisfy { $0.count == 1 && (name($0[0]) == "zenity" || isGone($0[0])) }, "\(last.values.filter { $0.count != 1 || !(name($0[0]) == "zenity" || isGone($0[0])) }.prefix(3))")
        var after: Result<DBusValue, DBusFailure>?
        bus.send(ATSPIRequest.name(ATSPIApplicationRead.root).call, to: application) { after = $0 }
        loop { after != nil }
        #expect(isGone(after), "\(String(describing: after))")
        #expect(bus.directAddress(of: application) == nil)
        #expect(bus.directEndings.contains { $0.contains("closed") }, "\(bus.directEndings)")
        #expect(notices.isEmpty, "an application that quits is no fault to report: \(notices)")
    }

    @Test("routes pruned when an application leaves: zenity's route, over its own socket, goes once it quits; a call to it afterwards is .gone and leaves no route behind")
    func routesPrunedWhenAnApplicationLeaves() throws {
        let desktop = try HeadlessDesktop()
        defer { desktop.stop() }
        let zenity = try desktop.launch("/usr/bin/zenity", ["--question", "--text", "Delete photo?"], name: "zenity")
        let bus = try ATSPIBus(environment: environment(of: desktop))
        let application = try #require(bus.application(named: "zenity"), "zenity did not appear on the accessibility bus")
        var first: Result<DBusValue, DBusFailure>?
        bus.send(ATSPIRequest.name(ATSPIApplicationRead.root).call, to: application) { first = $0 }
        loop { first != nil }
        #expect(first.map(name) == "zenity")
        #expect(bus.routedApplications == [application])
        #expect(bus.directAddress(of: application) != nil, "no direct connection: \(bus.directEndings)")

        _ = try zenity.kill()
        loop { bus.routedApplications.isEmpty }
        #expect(bus.routedApplications.isEmpty, "a route outlived its application")

        var late: Result<DBusValue, DBusFailure>?
        bus.send(ATSPIRequest.name(ATSPIApplicationRead.root).call, to: application) { late = $0 }
        loop { late != nil }
        #expect(isGone(late))
        #expect(bus.routedApplications.isEmpty, "a call to a name that had left made it a route")
    }

    @Test("calls queued on an application's socket in one go, more than one write takes, as the application dies: the write that fails sends each of them over the bus, .gone once")
    func burstOntoADeadSocket() throws {
        let desktop = try HeadlessDesktop()
        defer { desktop.stop() }
        let zenity = try desktop.launch("/usr/bin/zenity", ["--question", "--text", "Delete photo?"], name: "zenity")
        let bus = try ATSPIBus(environment: environment(of: desktop))
        let application = try #require(bus.application(named: "zenity"), "zenity did not appear on the accessibility bus")
        var first: Result<DBusValue, DBusFailure>?
        bus.send(ATSPIRequest.name(ATSPIApplicationRead.root).call, to: application) { first = $0 }
        loop { first != nil }
        _ = try #require(bus.directAddress(of: application), "no direct connection: \(bus.directEndings)")
        // Dead, and the loop has not run since: the socket's end is found by the writes, not a read.
        _ = try zenity.kill()
        var answers: [Int: [Result<DBusValue, DBusFailure>]] = [:]
        for index in 0..<2_000 {
            bus.send(ATSPIRequest.name(ATSPIApplicationRead.root).call, to: application) { answers[index, default: []].append($0) }
        }
        loop { answers.count == 2_000 }
        #expect(answers.count == 2_000)
        #expect(answers.values.allSatisfy { $0.count == 1 && isGone($0[0]) }, "\(answers.values.filter { $0.count != 1 || !isGone($0[0]) }.prefix(3))")
    }

    @Test(
        "an application whose own socket is silent, refuses us, is missing or speaks nonsense is read over the bus: every call answered once, and why its socket was given up is said",
        arguments: [
            ("silent", "did not answer on its own socket"), ("refuse", "refused the authentication as uid"),
            ("missing", "cannot connect to"), ("garbage", "sent what is not D-Bus"),
        ])
    func misbehavingOwnSocket(mode: String, ending: String) throws {
        let desktop = try HeadlessDesktop()
        defer { desktop.stop() }
        let environment = try environment(of: desktop)
        let helper = BuiltProducts.repository + "/Tests/Helpers/atspi/own_socket.py"
        _ = try desktop.launch("/usr/bin/python3", [helper, environment["AT_SPI_BUS_ADDRESS"] ?? "", mode], name: "own-socket")
        var application: String?
        let started = ContinuousClock.now + .seconds(20)
        while application == nil, ContinuousClock.now < started {
            let printed = (try? String(contentsOfFile: desktop.directory + "/own-socket.out", encoding: .utf8)) ?? ""
            application = (try? JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: String])?["name"]
            if application == nil { usleep(50_000) }
        }
        let name = try #require(application, "own_socket.py did not start: \(desktop.log("own-socket"))")
        let bus = try ATSPIBus(environment: environment, timeoutMilliseconds: 500)
        var notices: [String] = []
        bus.noticed = { notices.append($0) }

        // Calls for a second, from before its socket is asked for until after it is given up.
        var answers: [Int: [Result<DBusValue, DBusFailure>]] = [:]
        for index in 0..<20 {
            bus.send(ATSPIRequest.name(ATSPIApplicationRead.root).call, to: name) { answers[index, default: []].append($0) }
            let pause = ContinuousClock.now + .milliseconds(50)
            loop { ContinuousClock.now >= pause }
        }
        loop { answers.count == 20 }
        #expect(answers.count == 20)
        #expect(answers.values.allSatisfy { $0.count == 1 && self.name($0[0]) == "own-socket-\(mode)" }, "\(answers.values.filter { $0.count != 1 || self.name($0[0]) == nil }.prefix(3))")
        #expect(bus.directAddress(of: name) == nil)
        #expect(bus.directEndings.contains { $0.contains(ending) }, "\(bus.directEndings)")
        #expect(notices.count == 1 && notices[0].contains(ending) && notices[0].hasSuffix("is asked over the accessibility bus instead"), "\(notices)")
    }

    @Test("many calls at once are each answered once, with calls that wait on the same connection among them; a name gone from the bus is .gone; a stopped application's call ends at its bound while others are answered")
    func everyCallAnsweredOnce() throws {
        let desktop = try HeadlessDesktop()
        defer { desktop.stop() }
        let zenity = try desktop.launch("/usr/bin/zenity", ["--question", "--text", "Delete photo?"], name: "zenity")
        let bus = try ATSPIBus(environment: environment(of: desktop))
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
