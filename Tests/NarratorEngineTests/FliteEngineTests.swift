import NarratorEngines
import NarratorTestSupport
import Testing

/// The built narrator-flite, driven through the engine protocol (docs/engine-protocol.md) as
/// narratord drives it: what narratord, and so a listener, would notice.
@Suite struct FliteEngineTests {
    static let voiceNames = ["slt", "kal", "kal16", "awb", "rms"]

    func speak(_ job: UInt32, _ text: String, voice: String = "slt", rate: Int = 175, pitch: Int = 50, volume: Int = 100) -> EngineRequest {
        .speak(job: job, text: text, voice: voice, rate: rate, pitch: pitch, volume: volume)
    }

    /// A serving engine whose `R` frame has been read.
    func readyEngine() throws -> (EngineProcess, EngineListing) {
        let engine = try EngineProcess()
        guard case .ready(let listing) = try engine.next() else {
            throw EngineProcessError(description: "the first frame was not R; stderr: \(engine.standardError)")
        }
        return (engine, listing)
    }

    /// Speaks `request` on `engine` and returns its frames.
    func run(_ request: EngineRequest, on engine: EngineProcess) throws -> EngineJob {
        guard case .speak(let job, _, _, _, _, _) = request else { fatalError("not a speak request") }
        try engine.send(request)
        return EngineJob(try engine.frames(through: job), job: job)
    }

    @Test func listingNamesFiveEnglishVoicesWithTheirSampleRates() throws {
        let run = try CompletedRun.run(EngineProcess.flite, ["--list-voices"], timeout: .seconds(60))
        #expect(run.status == 0, "\(run.stderr)")
        let listing = try EngineListing(json: run.stdout)
        #expect(listing.engine == "flite")
        #expect(listing.version == "2.2")
        #expect(listing.voices.map(\.name) == Self.voiceNames)
        #expect(listing.voices.allSatisfy { $0.languages == ["en-us", "en"] })
        #expect(listing.voices.first { $0.name == "slt" }?.gender == .female)
        #expect(listing.voices.filter { $0.name != "slt" }.allSatisfy { $0.gender == .male })
        #expect(listing.voices.first { $0.name == "kal" }?.sampleRate == 8000)
        #expect(listing.voices.filter { $0.name != "kal" }.allSatisfy { $0.sampleRate == 16000 })
    }

    @Test func readyComesFirstWithTheSameListing() throws {
        let listed = try EngineListing(json: try CompletedRun.run(EngineProcess.flite, ["--list-voices"], timeout: .seconds(60)).stdout)
        let (_, ready) = try readyEngine()
        #expect(ready == listed)
    }

    @Test func twoSentencesAreSpokenWithTheSecondOnesByteOffset() throws {
        let (engine, _) = try readyEngine()
        let text = "Hello there. How are you today?"
        let job = try run(speak(7, text), on: engine)
        #expect(job.shape == "BSASAE")
        #expect(job.sampleRate == 16000)
        #expect(job.sentenceOffsets == [0, 13])
        #expect(job.cancelled == false)
        // Speech, not silence: slt speaks at an RMS in the thousands.
        #expect(AudioMeasure.rms(job.samples) > 500, "RMS \(AudioMeasure.rms(job.samples))")
        // Six words at 175 words per minute, with a pause between the sentences: about two seconds.
        #expect(job.seconds > 1.0 && job.seconds < 5.0, "\(job.seconds) s")
        #expect(job.audioFrames.allSatisfy { !$0.isEmpty && $0.count <= 1600 }, "an A frame holds more than 100 ms")
    }

    @Test(arguments: voiceNames)
    func everyVoiceSpeaksAtItsListedRate(_ voice: String) throws {
        let (engine, listing) = try readyEngine()
        let job = try run(speak(1, "The quick brown fox jumps over the lazy dog.", voice: voice), on: engine)
        #expect(job.shape == "BSAE")
        #expect(job.sampleRate == listing.voices.first { $0.name == voice }?.sampleRate)
        #expect(AudioMeasure.rms(job.samples) > 300, "RMS \(AudioMeasure.rms(job.samples))")
        #expect(job.seconds > 1.5 && job.seconds < 8, "\(job.seconds) s")
    }

    /// Flite begins each utterance with 110 to 230 ms of silence (by voice), heard as a late
    /// onset; the engine leaves 15 ms before the first loud sample, so speech starts within a few tens of milliseconds.
    @Test(arguments: voiceNames)
    func speechStartsWithoutFlitesLeadingSilence(_ voice: String) throws {
        let (engine, _) = try readyEngine()
        let job = try run(speak(1, "Hello there. How are you today?", voice: voice), on: engine)
        let rate = Double(try #require(job.sampleRate))
        let first = try #require(job.samples.firstIndex { abs(Int($0)) >= 100 })
        #expect(Double(first) / rate < 0.05, "\(voice): first audible sample at \(Double(first) / rate * 1000) ms")
        // The later sentence keeps its pause: only the job's start is trimmed.
        #expect(job.seconds > 1.5, "\(job.seconds) s")
    }

    @Test func aLongSentenceStreamsInManyFramesOfAtMostATenthOfASecond() throws {
        let (engine, _) = try readyEngine()
        let text = "This single sentence is long enough that its audio must leave the engine in many pieces, "
            + "each one no longer than a tenth of a second, while the rest of it is still being made."
        let job = try run(speak(2, text), on: engine)
        #expect(job.sentenceOffsets == [0])
        #expect(job.audioFrames.count >= 40, "\(job.audioFrames.count) frames for \(job.seconds) s")
        #expect(job.audioFrames.allSatisfy { $0.count <= 1600 })
    }

    @Test func aFasterRateGivesShorterSpeechAndASlowerOneLonger() throws {
        let (engine, _) = try readyEngine()
        let text = "Reading speed should follow the rate that the listener has chosen."
        let normal = try run(speak(1, text), on: engine).seconds
        let fast = try run(speak(2, text, rate: 350), on: engine).seconds
        let slow = try run(speak(3, text, rate: 90), on: engine).seconds
        #expect(fast < normal * 0.75, "fast \(fast) s, normal \(normal) s")
        #expect(slow > normal * 1.4, "slow \(slow) s, normal \(normal) s")
    }

    @Test func aHigherPitchRaisesTheVoice() throws {
        let (engine, _) = try readyEngine()
        let text = "My voice goes up and down as I speak this sentence."
        let low = try run(speak(1, text, pitch: 0), on: engine)
        let high = try run(speak(2, text, pitch: 100), on: engine)
        let lowPitch = try #require(AudioMeasure.medianPitch(low.samples, sampleRate: 16000))
        let highPitch = try #require(AudioMeasure.medianPitch(high.samples, sampleRate: 16000))
        #expect(highPitch > lowPitch * 1.4, "low \(lowPitch) Hz, high \(highPitch) Hz")
    }

    @Test func volumeScalesTheSpeech() throws {
        let (engine, _) = try readyEngine()
        let text = "Loud and soft."
        let normal = AudioMeasure.rms(try run(speak(1, text), on: engine).samples)
        let half = AudioMeasure.rms(try run(speak(2, text, volume: 50), on: engine).samples)
        let silent = try run(speak(3, text, volume: 0), on: engine)
        #expect(half > normal * 0.4 && half < normal * 0.6, "half \(half), normal \(normal)")
        #expect(silent.samples.allSatisfy { $0 == 0 } && !silent.samples.isEmpty)
    }

    @Test func aCancelEndsTheJobAndNoAudioFollowsItsEnd() throws {
        let (engine, _) = try readyEngine()
        let text = (1...40).map { "This is sentence number \($0) of a long text that nobody will hear to the end." }.joined(separator: " ")
        try engine.send(speak(5, text))
        // Wait for the first audio, then cancel while the engine is still speaking.
        while true {
            guard let frame = try engine.next() else { throw EngineProcessError(description: "output ended") }
            if case .audio = frame { break }
        }
        try engine.send(.cancel(job: 5))
        let rest = EngineJob(try engine.frames(through: 5), job: 5)
        #expect(rest.cancelled == true)
        // Forty sentences are well over a minute of speech; what came after the cancel is a tiny part.
        let secondsAfterCancel = Double(rest.samples.count) / 16000
        #expect(secondsAfterCancel < 30, "\(secondsAfterCancel) s of audio after the cancel")
        // What follows the end is the next job's, whole: nothing more of job 5.
        try engine.send(speak(6, "Next."))
        let next = try engine.frames(through: 6)
        #expect(next.allSatisfy { $0.job == 6 }, "\(next.filter { $0.job != 6 })")
        #expect(EngineJob(next, job: 6).shape == "BSAE")
    }

    @Test func aJobCancelledBeforeItsTurnEndsCancelledWithoutAudio() throws {
        let (engine, _) = try readyEngine()
        let long = (1...10).map { "Sentence \($0) keeps the engine busy for a while." }.joined(separator: " ")
        try engine.send(speak(1, long))
        try engine.send(speak(2, "You will never hear this."))
        try engine.send(.cancel(job: 2))
        // A cancel for a job that never came, and one for a job that ended, change nothing.
        try engine.send(.cancel(job: 99))
        let frames = try engine.frames(through: 2)
        #expect(EngineJob(frames, job: 1).cancelled == false)
        let second = EngineJob(frames, job: 2)
        #expect(second.shape == "BE")
        #expect(second.cancelled == true)
        try engine.send(.cancel(job: 1))
        #expect(try run(speak(3, "Still here."), on: engine).cancelled == false)
    }

    @Test func anUnknownVoiceFailsNamingTheInstalledOnesAndTheNextJobSpeaks() throws {
        let (engine, _) = try readyEngine()
        let failed = try run(speak(1, "Hello.", voice: "nobody"), on: engine)
        #expect(failed.shape == "F")
        let message = try #require(failed.failure)
        #expect(message.contains("nobody"))
        #expect(Self.voiceNames.allSatisfy { message.contains($0) }, "\(message)")
        let next = try run(speak(2, "Hello."), on: engine)
        #expect(next.shape == "BSAE")
        #expect(next.cancelled == false)
    }

    @Test func accentsCurlyQuotesAndEmojiKeepTheSentenceOffsets() throws {
        let (engine, _) = try readyEngine()
        let parts = ["Café “au lait” is naïve’s treat. ", "😀 Emoji don’t break it! ", "Ünïcödé ends — here."]
        let job = try run(speak(4, parts.joined()), on: engine)
        #expect(job.sentenceOffsets == [0, parts[0].utf8.count, parts[0].utf8.count + parts[1].utf8.count])
        #expect(job.cancelled == false)
        #expect(AudioMeasure.rms(job.samples) > 500)
        #expect(job.seconds > 2, "\(job.seconds) s")
    }

    @Test func titlesInitialsAndNumbersDoNotCutASentence() throws {
        let (engine, _) = try readyEngine()
        let first = "Dr. Smith met J. R. Jones at 3.30 p.m. today. "
        let job = try run(speak(1, first + "They spoke for 2.5 hours."), on: engine)
        #expect(job.sentenceOffsets == [0, first.utf8.count])
    }

    @Test func aRunOnSentenceIsCutAfterAClauseSoNoPieceKeepsFliteSilentLong() throws {
        let (engine, _) = try readyEngine()
        let clause = (1...30).map { "word\($0)" }.joined(separator: " ") + ", "
        let rest = (1...40).map { "more\($0)" }.joined(separator: " ") + "."
        let job = try run(speak(1, clause + rest), on: engine)
        // Over 300 bytes: cut after the comma, where a reader would breathe.
        #expect(job.sentenceOffsets == [0, clause.utf8.count])
        #expect(job.cancelled == false)
    }

    @Test func leadingSpacesPutTheFirstSentenceWhereItsFirstWordStarts() throws {
        let (engine, _) = try readyEngine()
        let job = try run(speak(1, "  \n  First line without a stop\n\nA new paragraph."), on: engine)
        #expect(job.sentenceOffsets == [5, 32])
    }

    @Test func endOfInputExitsAtOnceWithStatusZeroEvenMidJob() throws {
        let (idle, _) = try readyEngine()
        idle.closeInput()
        #expect(idle.exit(within: .seconds(30)) == .exited(0))

        let (busy, _) = try readyEngine()
        try busy.send(speak(1, (1...40).map { "Sentence \($0) is never finished." }.joined(separator: " ")))
        while true {
            guard let frame = try busy.next() else { break }
            if case .audio = frame { break }
        }
        busy.closeInput()
        #expect(busy.exit(within: .seconds(30)) == .exited(0))
    }

    @Test func aMalformedLineIsLoggedAndTheEngineGoesOnServing() throws {
        let (engine, _) = try readyEngine()
        try engine.send(line: "this is not JSON\n")
        guard case .log(let message) = try engine.next() else { throw EngineProcessError(description: "no L frame for a line that is not JSON") }
        #expect(message.contains("not JSON"), "\(message)")
        // A speak that names its job but lacks a field fails that job, so narratord is not left waiting.
        try engine.send(line: #"{"op":"speak","job":8,"text":"No voice given."}"# + "\n")
        let broken = EngineJob(try engine.frames(through: 8), job: 8)
        #expect(broken.shape == "F")
        #expect(broken.failure?.contains("voice") == true, "\(broken.failure ?? "")")
        #expect(try run(speak(9, "Still speaking."), on: engine).shape == "BSAE")
    }
}
