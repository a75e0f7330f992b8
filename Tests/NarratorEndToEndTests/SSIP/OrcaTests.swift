import Foundation
import NarratorPulseHarness
import Testing

extension SSIPClientTests {
    /// Orca 43 on a headless desktop (Xvfb, private session bus, AT-SPI bus), speaking through
    /// narratord's SSIP server into a private PulseAudio server that is recorded:
    /// Tests/Helpers/ssip/orca_session.py drives a zenity question dialog and a GTK window with Say All.
    /// Set NARRATOR_SSIP_LOG_DIR to keep Orca's traffic log and stderr.
    @Suite struct OrcaTests {
        static let missing: Comment =
            "Orca's headless desktop is not installed (apt-get install orca xvfb dbus at-spi2-core xdotool zenity x11-utils python3-gi gir1.2-gtk-3.0 python3-speechd)"

        @Test(.enabled(if: SSIPTests.hasOrcaDesktop && PrivatePulseServer.isInstalled, missing))
        func orcaReadsTheDialogAndSaysAllToTheEnd() throws {
            let server = try SSIPServer(recorded: true)
            let pulse = try #require(server.pulse)
            var arguments = ["--ssip-socket", server.socket, "--pulse-server", "unix:" + pulse.socket, "--sink", pulse.sinkName, "--timeout", "110"]
            if let logs = ProcessInfo.processInfo.environment["NARRATOR_SSIP_LOG_DIR"] { arguments += ["--log-dir", logs + "/orca"] }
            let (run, lines) = try SSIPTests.script("orca_session.py", arguments, environment: pulse.environment, timeout: .seconds(130))
            let summary = try #require(SSIPTests.final(lines, kind: "summary"), "no summary: \(run.stdout) \(run.stderr.suffix(3000))")
            // What the driver waited for in vain (a message with no 702/703, Orca silent), for a failure's message.
            let stuck = lines.filter { $0["kind"] == "step" && $0["step"]?.stringValue?.contains("timed out") == true }
            #expect(summary["error"] == nil || summary["error"] == .null, "\(summary["error"] ?? nil)")
            #expect(summary["startup_texts"]?.arrayValue?.contains { $0.stringValue?.contains("Screen reader on") == true } == true)
            // The dialog, as Orca 43 spoke it with speech-dispatcher: "Question dialog", "Yes push
            // button", (Tab) "Delete photo? label", (Tab) "No push button".
            #expect(summary["results"]?["dialog"] == true, "\(summary["dialog"] ?? nil)")
            // Say All needs a 702 END per sentence to go on: all four, in order, the last one ended.
            #expect(summary["sayall"]?["every_sentence_in_order"] == true, "\(summary["phases"] ?? nil) \(stuck)")
            #expect(summary["sayall"]?["last_sentence_ended"] == true, "\(summary["sayall"] ?? nil) \(stuck)")
            #expect((summary["end_events"]?.numberValue ?? 0) >= 5)
            #expect((summary["index_marks"]?.numberValue ?? 0) > 0, "Orca's SSML marks must come back as 700 INDEX MARK")
            #expect((summary["recording"]?["speech_seconds"]?.numberValue ?? 0) > 3, "\(summary["recording"] ?? nil)")
            #expect(summary["ok"] == true)
            if server.daemon != nil {
                let rows = try server.logged(client: "Orca") { rows in rows.contains { $0["text"]?.stringValue?.contains("This last sentence") == true } }
                #expect(rows.contains { $0["text"]?.stringValue?.contains("Yes") == true }, "narratord's log for Orca: \(rows.count) rows")
                // Each with its outcome: Say All's sentences spoken, what Orca cut with CANCEL cancelled or interrupted.
                let outcomes = Set(rows.compactMap { $0["outcome"]?.stringValue })
                #expect(outcomes.contains("spoken"), "\(outcomes)")
                #expect(!outcomes.isDisjoint(with: ["interrupted", "cancelled"]), "\(outcomes)")
                #expect(rows.allSatisfy { $0["kind"] == "ssip" && $0["priority"] == "message" }, "\(rows.prefix(3))")
            }
        }
    }
}
