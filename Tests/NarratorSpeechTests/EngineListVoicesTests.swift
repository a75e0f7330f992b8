import Foundation
import Glibc
@testable import NarratorSpeech
import NarratorSystem
import Testing

/// `EXE --list-voices` as narratord runs it at start-up, and the errors that say which engine
/// is broken and how.
@Suite("Engine voice listings")
struct EngineListVoicesTests {
    /// An executable shell script `body` in a fresh directory.
    func script(_ body: String) throws -> String {
        let path = temporaryDirectory("list") + "/engine"
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    @Test("the test engine's listing is read, without starting it to serve")
    func listing() throws {
        let engine = try TestEngine()
        let listing = try listVoices(executable: engine.executable)
        #expect(listing.engine == "testengine")
        #expect(listing.voices.map(\.name) == ["espeak", "ramp"])
        #expect(listing.voices.map(\.sampleRate) == [22050, 16000])
        #expect(engine.pid == nil)
    }

    @Test("each way a listing can fail names the executable and what was wrong")
    func failures() throws {
        let missing = temporaryDirectory("list") + "/nothing"
        #expect(throws: EngineListVoicesError(executable: missing, problem: .couldNotRun(Errno(code: ENOENT, syscall: "posix_spawn \(missing)")))) {
            try listVoices(executable: missing)
        }
        let failing = try script("echo 'flite: no voices found in /usr/lib/flite' >&2; exit 1")
        #expect(throws: EngineListVoicesError(executable: failing, problem: .failed(.exited(1), message: "flite: no voices found in /usr/lib/flite"))) {
            try listVoices(executable: failing)
        }
        #expect("\(EngineListVoicesError(executable: failing, problem: .failed(.exited(1), message: "no voices")))"
            == "\(failing) --list-voices exited with status 1: no voices")
        let slow = try script("exec sleep 60")
        #expect(throws: EngineListVoicesError(executable: slow, problem: .timedOut(.milliseconds(500)))) {
            try listVoices(executable: slow, timeout: .milliseconds(500))
        }
        let wrong = try script(#"echo '{"engine":"flite","voices":[{"name":"slt","languages":["en"],"sampleRate":0}]}'"#)
        let error = #expect(throws: EngineListVoicesError.self) { try listVoices(executable: wrong) }
        #expect(error.map { "\($0)" } == "\(wrong) --list-voices printed a listing that is wrong at voices[0].sampleRate: must be a whole number of samples per second, 4000...192000")
        let empty = try script(#"echo '{"engine":"flite","voices":[]}'"#)
        #expect(throws: EngineListVoicesError(executable: empty, problem: .noVoices)) { try listVoices(executable: empty) }
        let twice = try script(#"echo '{"engine":"flite","voices":[{"name":"a","languages":["en"],"sampleRate":8000},{"name":"a","languages":["de"],"sampleRate":8000}]}'"#)
        #expect(throws: EngineListVoicesError(executable: twice, problem: .duplicateVoice("a"))) { try listVoices(executable: twice) }
    }
}
