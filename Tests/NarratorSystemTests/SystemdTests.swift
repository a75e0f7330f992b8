import Glibc
@testable import NarratorSystem
import Testing

@Suite struct SocketActivationTests {
    @Test func readsThePassedDescriptorsAndTheirNames() throws {
        let activation = try SocketActivation.parse(
            environment: ["LISTEN_PID": "4242", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "narratord:control"], pid: 4242)
        #expect(activation == SocketActivation(descriptors: [3, 4], names: ["narratord", "control"]))
    }

    @Test func namesDefaultToUnknown() throws {
        let activation = try SocketActivation.parse(environment: ["LISTEN_PID": "9", "LISTEN_FDS": "1"], pid: 9)
        #expect(activation == SocketActivation(descriptors: [3], names: ["unknown"]))
    }

    @Test func variablesMeantForAnotherProcessOrAbsentMeanNotActivated() throws {
        #expect(try SocketActivation.parse(environment: ["LISTEN_PID": "1", "LISTEN_FDS": "1"], pid: 2) == nil)
        #expect(try SocketActivation.parse(environment: [:], pid: 2) == nil)
        #expect(try SocketActivation.parse(environment: ["LISTEN_PID": "2", "LISTEN_FDS": "0"], pid: 2) == nil)
    }

    @Test func malformedVariablesAreErrors() {
        #expect(throws: SocketActivationError.invalidValue("LISTEN_PID", "abc")) {
            try SocketActivation.parse(environment: ["LISTEN_PID": "abc", "LISTEN_FDS": "1"], pid: 2)
        }
        #expect(throws: SocketActivationError.invalidValue("LISTEN_FDS", "-1")) {
            try SocketActivation.parse(environment: ["LISTEN_PID": "2", "LISTEN_FDS": "-1"], pid: 2)
        }
        #expect(throws: SocketActivationError.nameCountMismatch(descriptors: 2, names: 1)) {
            try SocketActivation.parse(environment: ["LISTEN_PID": "2", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "a"], pid: 2)
        }
    }

    @Test func takingFromTheProcessRemovesTheVariables() throws {
        // LISTEN_PID names another process, so no descriptor of ours is touched.
        setenv("LISTEN_PID", "\(getpid() + 1)", 1)
        setenv("LISTEN_FDS", "1", 1)
        setenv("LISTEN_FDNAMES", "narratord", 1)
        #expect(try SocketActivation.takeFromProcess() == nil)
        for name in SocketActivation.variables { #expect(getenv(name) == nil) }
    }

    @Test func onlyListeningUnixStreamSocketsAreServed() throws {
        let directory = try TemporaryDirectory()
        let listener = try SocketPath(path: directory.file("a.sock"), origin: .flag).bindListener(uid: getuid())
        defer { try? Syscall.close(listener.fd) }
        let datagram = try Syscall.unixSocket(type: Syscall.datagram)
        defer { try? Syscall.close(datagram) }
        let activation = SocketActivation(descriptors: [listener.fd, datagram, 9999], names: ["a", "b", "c"])
        #expect(activation.listeningUnixStreamSockets == [listener.fd])
    }
}

@Suite struct SystemdNotifierTests {
    /// A datagram socket standing in for systemd's notification socket.
    private func receive(on fd: Int32) throws -> String {
        #expect(try Syscall.poll(fd, events: Int16(POLLIN), timeoutMilliseconds: 60_000) != 0)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = try buffer.withUnsafeMutableBytes { try Syscall.read(fd, into: $0) }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    @Test func sendsStatesToAPathSocket() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("notify")
        let systemd = try Syscall.unixSocket(type: Syscall.datagram)
        defer { try? Syscall.close(systemd) }
        try Syscall.bind(systemd, to: UnixSocketAddress(path: path))

        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        #expect(notifier.isEnabled)
        try notifier.ready(status: "Serving on /run/user/1000/narrator/narratord.sock")
        #expect(try receive(on: systemd) == "READY=1\nSTATUS=Serving on /run/user/1000/narrator/narratord.sock\n")
        try notifier.status("two\nlines")
        #expect(try receive(on: systemd) == "STATUS=two lines\n")
        try notifier.reloading()
        let reloading = try receive(on: systemd)
        #expect(reloading.hasPrefix("RELOADING=1\nMONOTONIC_USEC="))
        #expect(UInt64(reloading.dropFirst("RELOADING=1\nMONOTONIC_USEC=".count).dropLast()) != nil)
        try notifier.stopping()
        #expect(try receive(on: systemd) == "STOPPING=1\n")
    }

    @Test func sendsToAnAbstractSocket() throws {
        let name = "narrator-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let systemd = try Syscall.unixSocket(type: Syscall.datagram)
        defer { try? Syscall.close(systemd) }
        try Syscall.bind(systemd, to: UnixSocketAddress(abstractName: name))
        try SystemdNotifier(environment: ["NOTIFY_SOCKET": "@" + name]).ready()
        #expect(try receive(on: systemd) == "READY=1\n")
    }

    @Test func withoutNotifySocketNothingIsSent() throws {
        let notifier = SystemdNotifier(environment: [:])
        #expect(!notifier.isEnabled)
        try notifier.ready(status: "ignored")
    }

    @Test func aBrokenNotifySocketIsReported() throws {
        #expect(throws: SystemdNotifierError.self) {
            try SystemdNotifier(environment: ["NOTIFY_SOCKET": "relative/path"]).ready()
        }
        let directory = try TemporaryDirectory()
        let missing = directory.file("absent")
        let error = #expect(throws: SystemdNotifierError.self) {
            try SystemdNotifier(environment: ["NOTIFY_SOCKET": missing]).ready()
        }
        #expect(error == .sendFailed(missing, Errno(code: ENOENT, syscall: "sendto")))
    }
}
