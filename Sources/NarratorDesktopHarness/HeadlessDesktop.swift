import Foundation
import NarratorBase
import NarratorSystem
import Synchronization

/// Why a headless desktop could not be started: the step, and what its program said.
public struct DesktopHarnessError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// A desktop without a screen, for tests and benchmarks that drive real GTK and Qt applications:
/// Xvfb, a private session bus, the AT-SPI bus launcher and registry (the recipe of
/// ../shared/reference/atspi.md), all in one temporary directory and stopped together. Nothing of
/// the user's own session is touched: the environment it gives applications names only its own
/// display and buses.
///
/// Children are ``ChildProcess``es (clean signal mask, no inherited descriptors), killed with
/// SIGKILL and reaped at `stop`.
public final class HeadlessDesktop: Sendable {
    public static let tools = [
        "/usr/bin/Xvfb", "/usr/bin/dbus-daemon", "/usr/bin/dbus-send", "/usr/libexec/at-spi-bus-launcher",
        "/usr/libexec/at-spi2-registryd", "/usr/bin/xprop",
    ]

    /// Whether every program it needs is installed (`make test-deps` installs them).
    public static var isInstalled: Bool {
        tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public let directory: String
    /// What an application started on this desktop needs in its environment (and nothing of the
    /// caller's session: its display, buses and runtime directory are replaced).
    public let environment: [String: String]
    private let children: Mutex<[ChildProcess]>
    /// The bus launcher and the registry now running, and how many times they were started.
    private let accessibility: Mutex<(launcher: ChildProcess, registry: ChildProcess, round: Int)>

    /// Starts the display, the session bus, the accessibility bus and its registry, and waits
    /// (up to 20 s each) until each answers.
    public init() throws {
        let directory = NSTemporaryDirectory() + "narrator-desktop-\(UUID().uuidString.prefix(8))"
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory + "/runtime", withIntermediateDirectories: true)
        chmod(directory + "/runtime", 0o700)
        let started = Mutex<[ChildProcess]>([])
        func spawn(_ path: String, _ arguments: [String], environment: [String: String], name: String) throws -> ChildProcess {
            do {
                let child = try ChildProcess(
                    path, arguments, environment: environment, output: directory + "/\(name).out", error: directory + "/\(name).err")
                started.withLock { $0.append(child) }
                return child
            } catch {
                throw DesktopHarnessError(description: "could not start \(path): \(error)")
            }
        }
        func fail(_ message: String, log name: String) -> DesktopHarnessError {
            started.withLock { $0.reversed().forEach { _ = try? $0.kill() } }
            let log = (try? String(contentsOfFile: directory + "/\(name).err", encoding: .utf8)) ?? ""
            return DesktopHarnessError(description: message + (log.isEmpty ? "" : "; it said: " + log.suffix(800)))
        }

        var environment = ProcessInfo.processInfo.environment
        for key in ["NO_AT_BRIDGE", "AT_SPI_BUS_ADDRESS", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"] { environment[key] = nil }
        environment["HOME"] = directory
        environment["XDG_RUNTIME_DIR"] = directory + "/runtime"
        environment["XDG_CONFIG_HOME"] = directory + "/config"
        environment["XDG_DATA_HOME"] = directory + "/data"
        environment["XDG_CACHE_HOME"] = directory + "/cache"
        environment["GSETTINGS_BACKEND"] = "memory"
        environment["GDK_BACKEND"] = "x11"
        environment["LANG"] = "C.UTF-8"

        // The display: a free number from 90 on, starting where this process's id points so that
        // desktops started at once rarely try the same one. The display is ours once its lock file
        // names our server (two servers racing for a number: one exits, and the other holds it).
        var display: String?
        let first = 90 + Int(getpid() % 50)
        for offset in 0..<100 {
            let number = 90 + (first - 90 + offset) % 100
            // A lock whose server is gone (one killed outright leaves its lock) is Xvfb's to clear.
            if let holder = Self.lockHolder(display: number), kill(holder, 0) == 0 { continue }
            let server = try spawn(
                "/usr/bin/Xvfb", [":\(number)", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"], environment: environment,
                name: "xvfb")
            let ours = Self.wait(for: {
                let lock = (try? String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
                return lock == String(server.pid) && FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
            }, unlessEnded: server)
            if ours {
                display = ":\(number)"
                break
            }
            _ = try? server.kill()
        }
        guard let display else { throw fail("Xvfb did not start on any display from :90 to :189", log: "xvfb") }
        environment["DISPLAY"] = display

        // A session bus that activates nothing: every service on it is one this desktop started,
        // so no stray bus launcher is spawned behind its back (one that outlives the desktop).
        let configuration = directory + "/session.conf"
        let busConfiguration = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(directory)</listen>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>

            """
        do {
            try busConfiguration.write(toFile: configuration, atomically: true, encoding: .utf8)
        } catch {
            throw fail("cannot write \(configuration): \(error)", log: "xvfb")
        }
        let bus = try spawn(
            "/usr/bin/dbus-daemon", ["--config-file=\(configuration)", "--nofork", "--print-address=1"], environment: environment, name: "dbus")
        var address = ""
        _ = Self.wait(for: {
            address = ((try? String(contentsOfFile: directory + "/dbus.out", encoding: .utf8)) ?? "")
                .split(separator: "\n").first.map(String.init) ?? ""
            return !address.isEmpty
        }, unlessEnded: bus)
        guard !address.isEmpty else { throw fail("the session bus did not start", log: "dbus") }
        environment["DBUS_SESSION_BUS_ADDRESS"] = address

        let bus11y: (launcher: ChildProcess, registry: ChildProcess)
        do {
            bus11y = try Self.startAccessibility(directory: directory, environment: environment, round: 1) { path, arguments, environment, name in
                try spawn(path, arguments, environment: environment, name: name)
            }
        } catch {
            started.withLock { $0.reversed().forEach { _ = try? $0.kill() } }
            throw error
        }
        accessibility = Mutex((bus11y.launcher, bus11y.registry, 1))
        self.environment = environment
        children = Mutex(started.withLock { $0 })
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Starts an application on this desktop; it is stopped with the desktop.
    public func launch(_ path: String, _ arguments: [String], name: String) throws(Errno) -> ChildProcess {
        let child = try ChildProcess(path, arguments, environment: environment, output: directory + "/\(name).out", error: directory + "/\(name).err")
        children.withLock { $0.append(child) }
        return child
    }

    /// What an application (or a step of the desktop) wrote to standard error so far.
    public func log(_ name: String) -> String {
        (try? String(contentsOfFile: directory + "/\(name).err", encoding: .utf8)) ?? ""
    }

    /// Stops every process of the desktop, the applications first, and what they started (the
    /// bus launcher runs the accessibility bus's own dbus-daemon, which would outlive it). Each
    /// gets SIGTERM and a moment to clean up (Xvfb removes its lock file and socket, which a
    /// server killed outright leaves behind), then SIGKILL.
    public func stop() {
        let running = children.withLock { children in
            defer { children.removeAll() }
            return children
        }
        for child in running.reversed() {
            let started = Self.descendants(of: child.pid)
            _ = try? child.send(SIGTERM)
            _ = try? child.wait(timeout: .milliseconds(500))
            // Orphans go to init (or a subreaper) to be reaped; killing them is what matters here.
            for pid in started { try? Syscall.killAndReap(pid) }
        }
    }

    /// Stops the accessibility bus (its launcher, the bus it runs, and the registry) and starts
    /// another, as a desktop does when at-spi-bus-launcher crashes and is restarted: the new bus
    /// has a new address, published on the root window and the session bus as before. What was
    /// connected to the old one (applications, AT-SPI clients) lost it.
    public func restartAccessibilityBus() throws {
        let (launcher, registry, round) = accessibility.withLock { $0 }
        for child in [registry, launcher] {
            let started = Self.descendants(of: child.pid)
            _ = try? child.send(SIGTERM)
            _ = try? child.wait(timeout: .milliseconds(500))
            for pid in started { try? Syscall.killAndReap(pid) }
            _ = try? child.kill()
        }
        let directory = self.directory
        let next = try Self.startAccessibility(directory: directory, environment: environment, round: round + 1) { path, arguments, environment, name in
            let child = try ChildProcess(path, arguments, environment: environment, output: directory + "/\(name).out", error: directory + "/\(name).err")
            self.children.withLock { $0.append(child) }
            return child
        }
        accessibility.withLock { $0 = (next.launcher, next.registry, round + 1) }
    }

    /// Starts at-spi-bus-launcher and, once it gives the bus's address, publishes it on the root
    /// window (Qt 5 looks only there; GTK asks the session bus) and starts the registry on it,
    /// waiting until it owns its name. The second and later rounds log to files of their own.
    static func startAccessibility(
        directory: String, environment: [String: String], round: Int,
        spawn: (String, [String], [String: String], String) throws -> ChildProcess
    ) throws -> (launcher: ChildProcess, registry: ChildProcess) {
        let suffix = round == 1 ? "" : "-\(round)"
        func fail(_ message: String, log name: String) -> DesktopHarnessError {
            let log = (try? String(contentsOfFile: directory + "/\(name).err", encoding: .utf8)) ?? ""
            return DesktopHarnessError(description: message + (log.isEmpty ? "" : "; it said: " + log.suffix(800)))
        }
        let launcherName = "at-spi-bus-launcher" + suffix
        let launcher: ChildProcess
        do {
            launcher = try spawn("/usr/libexec/at-spi-bus-launcher", ["--launch-immediately"], environment, launcherName)
        } catch {
            throw DesktopHarnessError(description: "could not start at-spi-bus-launcher: \(error)")
        }
        var accessibility = ""
        _ = wait(for: {
            guard let ask = try? ChildProcess(
                "/usr/bin/dbus-send", ["--session", "--print-reply=literal", "--dest=org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress"],
                environment: environment, output: directory + "/a11y-address.out"),
                (try? ask.wait(timeout: .seconds(5))) == .exited(0)
            else { return false }
            accessibility = ((try? String(contentsOfFile: directory + "/a11y-address.out", encoding: .utf8)) ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return !accessibility.isEmpty
        }, unlessEnded: launcher)
        guard !accessibility.isEmpty else {
            _ = try? launcher.kill()
            throw fail("the accessibility bus did not start", log: launcherName)
        }
        if let publish = try? ChildProcess(
            "/usr/bin/xprop", ["-root", "-f", "AT_SPI_BUS", "8s", "-set", "AT_SPI_BUS", accessibility], environment: environment)
        {
            _ = try? publish.wait(timeout: .seconds(5))
        }
        var registryEnvironment = environment
        registryEnvironment["AT_SPI_BUS_ADDRESS"] = accessibility
        let registryName = "registryd" + suffix
        let registry: ChildProcess
        do {
            registry = try spawn("/usr/libexec/at-spi2-registryd", [], registryEnvironment, registryName)
        } catch {
            _ = try? launcher.kill()
            throw DesktopHarnessError(description: "could not start at-spi2-registryd: \(error)")
        }
        // The registry owns org.a11y.atspi.Registry on the accessibility bus once it is ready.
        let ready = wait(for: {
            guard let ask = try? ChildProcess(
                "/usr/bin/dbus-send", ["--bus=\(accessibility)", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus.NameHasOwner", "string:org.a11y.atspi.Registry"],
                environment: environment, output: directory + "/registry-owner.out")
            else { return false }
            guard (try? ask.wait(timeout: .seconds(5))) == .exited(0) else { return false }
            return ((try? String(contentsOfFile: directory + "/registry-owner.out", encoding: .utf8)) ?? "").contains("boolean true")
        }, unlessEnded: registry)
        guard ready else {
            _ = try? registry.kill()
            _ = try? launcher.kill()
            throw fail("the accessibility registry did not start", log: registryName)
        }
        return (launcher, registry)
    }

    /// The process id in display `number`'s lock file, if there is one.
    static func lockHolder(display number: Int) -> pid_t? {
        guard let text = try? String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8) else { return nil }
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The processes `pid` started, and theirs, from /proc.
    static func descendants(of pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let children = tasks.flatMap { task -> [pid_t] in
            let listed = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return listed.split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
        }
        return children + children.flatMap { descendants(of: $0) }
    }

    /// Polls `condition` every 20 ms for up to 20 s; false at once if `process` ends.
    static func wait(for condition: () -> Bool, unlessEnded process: ChildProcess) -> Bool {
        let deadline = MonotonicClock.now() + .seconds(20)
        while MonotonicClock.now() < deadline {
            if condition() { return true }
            if (try? process.poll()) ?? nil != nil { return condition() }
            usleep(20_000)
        }
        return condition()
    }
}
