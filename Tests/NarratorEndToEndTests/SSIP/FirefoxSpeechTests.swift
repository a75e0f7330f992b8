import Foundation
import NarratorSystem
import NarratorTestSupport
import Testing

extension SSIPClientTests {
    /// Firefox ESR's Web Speech (`speechSynthesis`) speaks through libspeechd, so through whatever
    /// holds the SSIP socket: a local page (Tests/Helpers/firefox/speech.html) in headless Firefox
    /// lists the voices, speaks, and hears its start and end from narratord.
    @Suite struct FirefoxSpeechTests {
        static let firefox = "/usr/bin/firefox-esr"
        static let missing: Comment = "Firefox ESR is not installed (apt-get install firefox-esr)"

        @Test(.enabled(if: SSIPTests.installed(firefox), missing))
        func aPageSpeaksThroughTheServerAndHearsItsStartAndEnd() throws {
            let server = try SSIPServer()
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("narrator-firefox-\(UUID().uuidString.prefix(8))").path
            let profile = directory + "/profile"
            try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            // The page's console on standard output, and no first-run pages or network chores.
            let preferences = [
                "devtools.console.stdout.content": "true", "browser.shell.checkDefaultBrowser": "false",
                "datareporting.policy.dataSubmissionEnabled": "false", "toolkit.telemetry.reportingpolicy.firstRun": "false",
                "browser.startup.homepage_override.mstone": "\"ignore\"", "app.update.enabled": "false",
            ]
            try preferences.map { "user_pref(\"\($0.key)\", \($0.value));\n" }.joined().write(toFile: profile + "/user.js", atomically: true, encoding: .utf8)
            var environment = server.clientEnvironment
            environment["MOZ_HEADLESS"] = "1"
            environment["HOME"] = directory
            let output = directory + "/firefox.out"
            let page = "file://" + BuiltProducts.repository + "/Tests/Helpers/firefox/speech.html"
            let browser = try ChildProcess(
                Self.firefox, ["--headless", "--no-remote", "--profile", profile, page], environment: environment, output: output, error: directory + "/firefox.err")
            defer {
                try? browser.send(SIGTERM)
                if (try? browser.wait(timeout: .seconds(10))) == nil { _ = try? browser.kill() }
            }
            var lines: [String] = []
            let deadline = Date().addingTimeInterval(90)
            while Date() < deadline {
                let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
                lines = text.split(separator: "\n").compactMap { line in line.range(of: "narrator-test: ").map { String(line[$0.upperBound...].prefix { $0 != "\"" }) } }
                if lines.contains(where: { $0 == "end" || $0.hasPrefix("error") || $0 == "no voices" }) { break }
                usleep(100_000)
            }
            let stderr = (try? String(contentsOfFile: directory + "/firefox.err", encoding: .utf8)) ?? ""
            // Every voice and variant the server lists reaches the page's voice list.
            #expect(lines.first?.hasPrefix("voices ") == true && lines.first?.hasSuffix(" grandma true") == true, "\(lines)\n\(stderr.suffix(2000))")
            // The server's BEGIN and END reached the page as the utterance's start and end events.
            #expect(Array(lines.dropFirst()) == ["start", "end"], "\(lines)\n\(stderr.suffix(2000))")
            // And narratord logged it, as Firefox's own client.
            let rows = try server.logged(client: "firefox")
            if server.daemon != nil {
                #expect(rows.contains { $0["text"] == "Hello from Firefox through Narrator" && $0["outcome"] == "spoken" }, "\(rows)")
            }
        }
    }
}
