import Foundation
import Testing

/// `make install` into a DESTDIR and `make uninstall`, as a packager would run them.
@Suite struct InstallTests {
    @Test func installAndUninstallIntoADestdir() throws {
        let destdir = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-dest-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: destdir) }
        let install = try DaemonHarness.run(
            "/usr/bin/make", ["-s", "install-files", "DESTDIR=" + destdir, "PREFIX=/usr", "BIN=" + DaemonHarness.binaries])
        #expect(install.status == 0, "\(install.stderr)")
        let expected = [
            "usr/bin/narratord", "usr/bin/narratorctl", "usr/bin/narrator-atspi", "usr/bin/narrator-flite", "usr/bin/narrator-piper", "usr/lib/systemd/user/narratord.service",
            "usr/lib/systemd/user/narrator-atspi.service",
            "usr/lib/systemd/user/narratord.socket", "usr/share/man/man1/narratord.1", "usr/share/man/man1/narratorctl.1",
            "usr/share/bash-completion/completions/narratorctl", "usr/share/narrator/examples/player.json",
            "usr/share/doc/narrator/protocol.md",
        ]
        for path in expected { #expect(FileManager.default.fileExists(atPath: destdir + "/" + path), "\(path)") }
        #expect(FileManager.default.isExecutableFile(atPath: destdir + "/usr/bin/narratorctl"))
        // narratord finds its engines beside itself: the installed Flite lists its voices.
        let flite = try DaemonHarness.run(destdir + "/usr/bin/narrator-flite", ["--list-voices"])
        #expect(flite.status == 0 && flite.stdout.contains(#""engine":"flite""#), "\(flite.stderr)")
        let unit = try String(contentsOfFile: destdir + "/usr/lib/systemd/user/narratord.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/bin/narratord\n"))
        let bridge = try String(contentsOfFile: destdir + "/usr/lib/systemd/user/narrator-atspi.service", encoding: .utf8)
        #expect(bridge.contains("ExecStart=/usr/bin/narrator-atspi run\n") && bridge.contains("file:/usr/share/doc/narrator/atspi.md"))
        // The installed program runs, and the completion script is valid bash.
        let version = try DaemonHarness.run(destdir + "/usr/bin/narratorctl", ["--version"])
        #expect(version.stdout.hasPrefix("narratorctl "))
        #expect(try DaemonHarness.run("/bin/bash", ["-n", destdir + "/usr/share/bash-completion/completions/narratorctl"]).status == 0)
        // Piper's environment names where it will run, not where it was staged: its scripts and
        // pyvenv.cfg would otherwise point into DESTDIR (a package's build directory).
        let venv = destdir + "/usr/lib/narrator/piper-venv"
        let staged = try DaemonHarness.run("/bin/grep", ["-rlIF", destdir, venv + "/bin", venv + "/pyvenv.cfg"])
        #expect(staged.stdout.isEmpty, "files naming the staging directory: \(staged.stdout)")
        let config = try String(contentsOfFile: venv + "/pyvenv.cfg", encoding: .utf8)
        #expect(config.contains("/usr/lib/narrator/piper-venv"), "\(config)")
        for page in ["narrator-atspi.1", "narrator-flite.1", "narrator-piper.1"] {
            #expect(FileManager.default.fileExists(atPath: destdir + "/usr/share/man/man1/" + page), "\(page)")
        }

        let uninstall = try DaemonHarness.run("/usr/bin/make", ["-s", "uninstall", "DESTDIR=" + destdir, "PREFIX=/usr"])
        #expect(uninstall.status == 0)
        let left = FileManager.default.enumerator(atPath: destdir)?.compactMap { $0 as? String }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: destdir + "/" + $0, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        #expect(left == [])
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/man"), "man is not installed"))
    func manPagesRender() throws {
        for page in ["narratord.1", "narratorctl.1", "narrator-atspi.1", "narrator-flite.1", "narrator-piper.1"] {
            var environment = ProcessInfo.processInfo.environment
            environment["MANWIDTH"] = "80"
            let result = try DaemonHarness.run("/usr/bin/man", ["-l", DaemonHarness.repository + "/man/" + page], environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("SYNOPSIS"))
            #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        }
    }
}
