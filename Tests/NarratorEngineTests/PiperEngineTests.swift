import NarratorTestSupport
import Testing

/// The Piper engine (engines/piper, installed by `make piper` beside the built binaries) and the
/// Flite one, through the protocol checker every engine must pass
/// (Tests/Helpers/engines/check_engine.py: listing, `R` first, sentence offsets, speech that is
/// not silence and lasts as long as its text, cancel mid-job, an unknown voice, end of input).
@Suite(.serialized) struct PiperEngineTests {
    static var piper: String { BuiltProducts.directory + "/narrator-piper" }
    static let checker = BuiltProducts.repository + "/Tests/Helpers/engines/check_engine.py"

    /// Runs a checker script on `engine`, failing with what it printed.
    func check(_ script: String, _ engine: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try CompletedRun.run("/usr/bin/python3", [script, engine], timeout: .seconds(300))
        #expect(run.status == 0, "\(script) \(engine) failed:\n\(run.stdout)\n\(run.stderr)", sourceLocation: sourceLocation)
    }

    @Test func piperPassesTheProtocolCheck() throws {
        try #require(
            CompletedRun.run("/usr/bin/test", ["-x", Self.piper]).status == 0,
            "\(Self.piper) is missing: `make piper` builds Piper's environment and its launcher (make test runs it)")
        try check(Self.checker, Self.piper)
    }

    @Test func piperCutsLongTextWhereASentenceOrClauseEnds() throws {
        try check(BuiltProducts.repository + "/Tests/Helpers/engines/check_piper_text.py", Self.piper)
    }

    @Test func flitePassesTheSameCheck() throws {
        try check(Self.checker, BuiltProducts.directory + "/narrator-flite")
    }

    /// Piper begins its audio with about 30 ms of near-silence, heard as a later onset; the engine
    /// starts the job 15 ms before its first loud sample.
    @Test func speechStartsWithoutPipersLeadingSilence() throws {
        let engine = try EngineProcess(Self.piper)
        guard case .ready = try engine.next() else { throw EngineProcessError(description: "no R frame; stderr: \(engine.standardError)") }
        try engine.send(.speak(job: 1, text: "Hello there. How are you today?", voice: "joe", rate: 175, pitch: 50, volume: 100))
        let job = EngineJob(try engine.frames(through: 1), job: 1)
        let rate = Double(try #require(job.sampleRate))
        let first = try #require(job.samples.firstIndex { abs(Int($0)) >= 100 })
        #expect(Double(first) / rate < 0.025, "first audible sample at \(Double(first) / rate * 1000) ms")
        #expect(job.seconds > 1, "\(job.seconds) s")
    }
}
