import Glibc
@testable import NarratorSystem
import Testing

@Suite struct SocketPathResolutionTests {
    @Test func flagWinsOverEverything() {
        let resolved = SocketPath.resolve(
            flag: "/srv/n.sock",
            environment: ["NARRATOR_SOCKET": "/env/n.sock", "XDG_RUNTIME_DIR": "/run/user/1000"],
            uid: 1000)
        #expect(resolved == SocketPath(path: "/srv/n.sock", origin: .flag))
        #expect(!resolved.ownsDirectory)
    }

    @Test func environmentVariableWinsOverRuntimeDirectory() {
        let resolved = SocketPath.resolve(
            flag: nil, environment: ["NARRATOR_SOCKET": "/env/n.sock", "XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000)
        #expect(resolved == SocketPath(path: "/env/n.sock", origin: .environment))
    }

    @Test func runtimeDirectoryGetsANarratorSubdirectory() {
        let resolved = SocketPath.resolve(flag: nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1000/"], uid: 1000)
        #expect(resolved == SocketPath(path: "/run/user/1000/narrator/narratord.sock", origin: .runtimeDirectory))
        #expect(resolved.directory == "/run/user/1000/narrator")
        #expect(resolved.ownsDirectory)
    }

    @Test func fallsBackToAPerUserDirectoryInTmp() {
        let resolved = SocketPath.resolve(flag: nil, environment: [:], uid: 1234)
        #expect(resolved == SocketPath(path: "/tmp/narrator-1234/narratord.sock", origin: .temporaryDirectory))
        #expect(resolved.ownsDirectory)
    }

    @Test func emptyOrRelativeValuesCountAsUnset() {
        let resolved = SocketPath.resolve(
            flag: "", environment: ["NARRATOR_SOCKET": "", "XDG_RUNTIME_DIR": "relative/dir"], uid: 7)
        #expect(resolved.path == "/tmp/narrator-7/narratord.sock")
    }
}

/// Closes a listening socket and waits (at most 5 s) until nothing listens on `path`: a child
/// that another test spawns at this instant holds a copy of every descriptor until its exec
/// closes the close-on-exec ones, and the socket answers until then. (CI once saw a closed
/// listener still alive.)
func closeListener(_ fd: Int32, at path: String) throws {
    try Syscall.close(fd)
    let address = try UnixSocketAddress(path: path)
    let deadline = ContinuousClock.now + .seconds(5)
    while case .alive = probeSocketFile(path, address), ContinuousClock.now < deadline {
        usleep(10_000)
    }
}

@Suite struct SocketDirectoryAndBindingTests {
    @Test func createsThePrivateDirectory0700AndTheSocket0600() throws {
        let runtime = try TemporaryDirectory()
        let socketPath = SocketPath.resolve(flag: nil, environment: ["XDG_RUNTIME_DIR": runtime.path], uid: getuid())
        let listener = try socketPath.bindListener(uid: getuid())
        #expect(listener.directory == .created)
        #expect(try Syscall.lstat(socketPath.directory).permissions == 0o700)
        let socketStatus = try Syscall.lstat(socketPath.path)
        #expect(socketStatus.isSocket)
        #expect(socketStatus.permissions == 0o600)
        // While it listens the file is live; once the loop closed it, a clean exit removes it.
        #expect(!listener.removeSocketFile())
        try closeListener(listener.fd, at: socketPath.path)
        #expect(listener.removeSocketFile())
        #expect(throws: Errno.self) { try Syscall.lstat(socketPath.path) }
    }

    @Test func tightensALooseNarratorDirectory() throws {
        let runtime = try TemporaryDirectory()
        try Syscall.mkdir(runtime.file("narrator"), mode: 0o755)
        try Syscall.chmod(runtime.file("narrator"), mode: 0o755)
        let socketPath = SocketPath.resolve(flag: nil, environment: ["XDG_RUNTIME_DIR": runtime.path], uid: getuid())
        #expect(try socketPath.prepareDirectory(uid: getuid()) == .permissionsTightened(from: 0o755))
        #expect(try Syscall.lstat(socketPath.directory).permissions == 0o700)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give a directory to another user"))
    func refusesANarratorDirectoryOwnedByAnotherUser() throws {
        let runtime = try TemporaryDirectory()
        try Syscall.mkdir(runtime.file("narrator"), mode: 0o700)
        try Syscall.chown(runtime.file("narrator"), owner: 65534, group: 65534)
        let socketPath = SocketPath.resolve(flag: nil, environment: ["XDG_RUNTIME_DIR": runtime.path], uid: getuid())
        #expect(throws: SocketPathError.directoryOwnedByAnotherUser(runtime.file("narrator"), owner: 65534, expected: getuid())) {
            try socketPath.bindListener(uid: getuid())
        }
    }

    @Test func refusesASymbolicLinkInPlaceOfTheNarratorDirectory() throws {
        let runtime = try TemporaryDirectory()
        let elsewhere = try TemporaryDirectory()
        #expect(symlink(elsewhere.path, runtime.file("narrator")) == 0)
        let socketPath = SocketPath.resolve(flag: nil, environment: ["XDG_RUNTIME_DIR": runtime.path], uid: getuid())
        #expect(throws: SocketPathError.notADirectory(runtime.file("narrator"))) {
            try socketPath.prepareDirectory(uid: getuid())
        }
    }

    @Test func leavesAnExplicitlyNamedSharedDirectoryAlone() throws {
        let shared = try TemporaryDirectory(mode: 0o755)
        let socketPath = SocketPath.resolve(flag: shared.file("n.sock"), environment: [:], uid: getuid())
        let listener = try socketPath.bindListener(uid: getuid())
        defer { try? Syscall.close(listener.fd) }
        #expect(listener.directory == .existing)
        #expect(try Syscall.lstat(shared.path).permissions == 0o755)
        #expect(try Syscall.lstat(socketPath.path).permissions == 0o600)
    }

    @Test func replacesAStaleSocketFromADeadDaemon() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("n.sock")
        // A daemon that died: its socket file stays, nothing listens on it.
        let dead = try Syscall.unixSocket(type: Syscall.stream)
        try Syscall.bind(dead, to: UnixSocketAddress(path: path))
        try Syscall.listen(dead, backlog: 1)
        try closeListener(dead, at: path)
        #expect(throws: UnixClientError.connectionRefused(path)) { try UnixClient(connectingTo: path) }

        let listener = try SocketPath(path: path, origin: .flag).bindListener(uid: getuid())
        defer { try? Syscall.close(listener.fd) }
        #expect(listener.replacedStaleSocket)
        let client = try UnixClient(connectingTo: path)
        client.close()
    }

    @Test func aLiveDaemonMakesTheSecondOneFailWithAlreadyRunning() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("n.sock")
        let first = try SocketPath(path: path, origin: .flag).bindListener(uid: getuid())
        defer { try? Syscall.close(first.fd) }
        #expect(throws: SocketPathError.alreadyRunning(path)) {
            try SocketPath(path: path, origin: .flag).bindListener(uid: getuid())
        }
        #expect(SocketPathError.alreadyRunning(path).description.contains("already running on \(path)"))
        // The first daemon's socket is untouched and still answers.
        let client = try UnixClient(connectingTo: path)
        client.close()
    }

    @Test func neverDeletesSomethingThatIsNotASocket() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("n.sock")
        #expect(creat(path, 0o600) >= 0)
        #expect(throws: SocketPathError.notASocket(path)) {
            try SocketPath(path: path, origin: .flag).bindListener(uid: getuid())
        }
        #expect(try Syscall.lstat(path).isSocket == false)
    }

    @Test func aPathOverTheUnixLimitIsAClearError() throws {
        let path = "/tmp/" + String(repeating: "n", count: 110) + ".sock"
        let error = #expect(throws: SocketPathError.self) {
            try SocketPath(path: path, origin: .flag).bindListener(uid: getuid())
        }
        #expect(error == .invalidAddress(.tooLong(path, bytes: path.utf8.count, limit: 107)))
        #expect(error?.description.contains("at most 107") == true)
    }

    @Test func removeSocketFileLeavesAReplacementAlone() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("n.sock")
        let old = try SocketPath(path: path, origin: .flag).bindListener(uid: getuid())
        try closeListener(old.fd, at: path)
        let new = try SocketPath(path: path, origin: .flag).bindListener(uid: getuid())
        // The replacement is live (even if the file system reused the old inode number).
        #expect(!old.removeSocketFile())
        #expect(try Syscall.lstat(path).isSocket)
        try closeListener(new.fd, at: path)
        #expect(new.removeSocketFile())
    }
}
