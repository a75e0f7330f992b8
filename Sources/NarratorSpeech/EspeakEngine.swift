import CEspeak
import Dispatch
import Glibc
import NarratorEngines
import NarratorSystem
import Synchronization

/// eSpeak NG, owned by one dedicated thread.
///
/// The library keeps global state and is not thread-safe, so an engine claims it for the whole
/// process and makes every call from its own thread. Synthesis runs in synchronous mode: PCM
/// arrives chunk by chunk through the synth callback, each chunk goes to the job's handler at once
/// (so playback starts while the rest is being synthesized), and the callback's return value
/// stops synthesis between chunks when the job is cancelled.
public final class EspeakEngine: Synthesizer {
    public var engineName: EngineName { .espeak }
    /// In the daemon's process: ready once it was created.
    public var health: EngineHealth { .ready }

    public func sampleRate(for voice: VoiceChoice) -> Int { sampleRate }

    /// The library's version ("1.51"), for records that must say which synthesizer timed them.
    public static var version: String { espeak_Info(nil).map { String(cString: $0) } ?? "unknown" }

    /// Whether some engine owns the library in this process.
    private static let claimed = Mutex(false)

    /// Samples per second of the PCM the engine produces (mono, signed 16-bit).
    public let sampleRate: Int
    /// The installed voices, read once at start-up.
    public let voices: [EspeakVoice]
    /// The installed variants (`voices/!v`), read once at start-up: what a ``VoiceChoice`` may
    /// add to a voice, and what SSIP's `LIST SYNTHESIS_VOICES` offers with each voice.
    public let variants: [VoiceVariant]
    /// The data directory in use (nil: the library's default location).
    public let dataPath: String?
    /// The engine thread; the library's state lives there and is handed to each job.
    private let worker: WorkerThread<LibraryState>

    /// Starts the engine thread and loads eSpeak NG's data.
    ///
    /// - Parameters:
    ///   - dataPath: an `espeak-ng-data` directory (or its parent); nil for the installed one.
    ///   - chunkMilliseconds: the size of the PCM chunks handed to the output.
    /// - Throws: ``EspeakError/dataNotFound(path:)`` or ``EspeakError/initializationFailed(status:message:path:)``
    ///   when the data is missing or broken; the library never exits the process.
    public init(dataPath: String? = nil, chunkMilliseconds: Int = 20) throws(EspeakError) {
        let alreadyClaimed = Self.claimed.withLock { claimed in
            defer { claimed = true }
            return claimed
        }
        if alreadyClaimed { throw .libraryInUse }
        if let dataPath, let problem = Self.dataProblem(dataPath) {
            Self.claimed.withLock { $0 = false }
            throw problem
        }
        let worker = WorkerThread(name: "narrator.espeak", state: { LibraryState() })
        do {
            let (rate, voices, variants) = try worker.sync {
                (library: inout LibraryState) throws(EspeakError) -> (Int, [EspeakVoice], [VoiceVariant]) in
                try library.initialize(dataPath: dataPath, chunkMilliseconds: chunkMilliseconds)
            }
            self.sampleRate = rate
            self.voices = voices
            self.variants = variants
        } catch {
            worker.stop()
            Self.claimed.withLock { $0 = false }
            throw error
        }
        self.worker = worker
        self.dataPath = dataPath
    }

    deinit {
        worker.submit { library in library.terminate() }
        worker.stop()
        Self.claimed.withLock { $0 = false }
    }

    /// Queues a job; it runs after the jobs submitted before it.
    public func submit(_ job: SynthesisJob) {
        worker.submit { library in library.run(job) }
    }

    /// Synthesizes `text` completely and returns its PCM (for tests, benchmarks and captions).
    public func synthesize(
        _ text: String, ssml: Bool = false, voice: VoiceChoice = .standard, parameters: VoiceParameters = VoiceParameters()
    ) throws(EspeakError) -> [Int16] {
        try synthesizeWithMarks(text, ssml: ssml, voice: voice, parameters: parameters).samples
    }

    /// Synthesizes `text` completely and returns its PCM and its SSML marks with their sample
    /// positions (so a test can tell when each mark should be heard).
    public func synthesizeWithMarks(
        _ text: String, ssml: Bool = true, voice: VoiceChoice = .standard, parameters: VoiceParameters = VoiceParameters()
    ) throws(EspeakError) -> (samples: [Int16], marks: [SynthesisJob.Mark]) {
        let collected = Mutex<[Int16]>([])
        let marks = Mutex<[SynthesisJob.Mark]>([])
        let outcome = Mutex<SynthesisJob.Outcome?>(nil)
        let done = DispatchSemaphore(value: 0)
        let job = SynthesisJob(
            text: text, ssml: ssml, voice: voice, parameters: parameters,
            onMark: { mark in marks.withLock { $0.append(mark) } },
            onChunk: { chunk in
                collected.withLock { $0 += chunk }
                return true
            },
            onEnd: { result in
                outcome.withLock { $0 = result }
                done.signal()
            })
        submit(job)
        done.wait()
        if case .failed(.espeak(let error)) = outcome.withLock({ $0 }) { throw error }
        return (collected.withLock { $0 }, marks.withLock { $0 })
    }

    /// Resolves a voice choice to the voice that would be used, without speaking.
    public func resolve(_ choice: VoiceChoice) throws(EspeakError) -> String {
        return try worker.sync { (library: inout LibraryState) throws(EspeakError) -> String in
            try library.select(choice)
            return library.currentVoiceName
        }
    }

    /// Why `path` (an espeak-ng-data directory or its parent) cannot serve as eSpeak NG's data, checked
    /// before the library sees it: a missing `phontab`, or one this user may not read.
    static func dataProblem(_ path: String) -> EspeakError? {
        for directory in [path, path + "/espeak-ng-data"] where Syscall.exists(directory) {
            if !Syscall.isAccessible(directory, R_OK | X_OK) {
                return .dataUnreadable(path: directory)
            }
            let table = directory + "/phontab"
            if Syscall.exists(table) {
                return Syscall.isAccessible(table, R_OK) ? nil : .dataUnreadable(path: table)
            }
        }
        return .dataNotFound(path: path)
    }
}

/// The library's global state: created on the engine thread and handed to each job there, never
/// shared (so it needs no lock and is not `Sendable`).
private final class LibraryState {
    private var voiceChoice: VoiceChoice?
    /// The voice each choice loaded (its file and variant, "gmw/en|f2"), learnt the first time
    /// it was selected: two choices that name one voice (English by name, and the language
    /// "en" an SSIP client asks for) then take turns without loading it again, which costs a
    /// fraction of a millisecond each time JSON and SSIP speech alternate.
    private var loaded: [VoiceChoice: String] = [:]
    private var loadedVoice: String?
    private var parameters: VoiceParameters?
    private(set) var currentVoiceName = ""
    /// The installed variants, to check a variant's name before eSpeak NG silently ignores an unknown one.
    private var variants: [VoiceVariant] = []

    func initialize(dataPath: String?, chunkMilliseconds: Int) throws(EspeakError) -> (Int, [EspeakVoice], [VoiceVariant]) {
        espeak_ng_InitializePath(dataPath)
        var context: espeak_ng_ERROR_CONTEXT?
        let status = espeak_ng_Initialize(&context)
        if status != ENS_OK {
            let message = EspeakError.message(for: status)
            espeak_ng_ClearErrorContext(&context)
            throw .initializationFailed(status: status.rawValue, message: message, path: dataPath)
        }
        let output = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, Int32(chunkMilliseconds), nil)
        if output != ENS_OK {
            throw .outputSetupFailed(status: output.rawValue, message: EspeakError.message(for: output))
        }
        espeak_SetSynthCallback { wav, count, events in
            guard let userData = events?.pointee.user_data else { return 0 }
            let run = Unmanaged<SynthesisRun>.fromOpaque(userData).takeUnretainedValue()
            return run.deliver(wav, count: Int(count), events: events)
        }
        var voices: [EspeakVoice] = []
        if var list = espeak_ListVoices(nil) {
            while let voice = list.pointee {
                voices.append(EspeakVoice(voice.pointee))
                list += 1
            }
        }
        // Listed before the default voice is chosen: listing with a voice spec also sets
        // eSpeak NG's voice stack (which SSML builds on), and the choice below resets it.
        variants = Self.listVariants()
        try select(.standard)
        try apply(VoiceParameters())
        return (Int(espeak_ng_GetSampleRate()), voices, variants)
    }

    /// The variants: `espeak_ListVoices` lists them (and only them) for the language "variant".
    private static func listVariants() -> [VoiceVariant] {
        var variants: [VoiceVariant] = []
        "variant".withCString { language in
            var spec = espeak_VOICE()
            spec.languages = language
            guard var list = espeak_ListVoices(&spec) else { return }
            while let entry = list.pointee {
                let voice = InstalledVoice(entry.pointee)
                let file = voice.identifier.hasPrefix("!v/") ? String(voice.identifier.dropFirst(3)) : voice.identifier
                variants.append(VoiceVariant(name: voice.name, identifier: file, gender: voice.gender))
                list += 1
            }
        }
        return variants
    }

    func terminate() {
        espeak_ng_Terminate()
    }

    func run(_ job: SynthesisJob) {
        if job.isCancelled {
            job.onEnd(.skipped)
            return
        }
        do {
            try job.onStart()
        } catch {
            // The output could not start the utterance: nothing would be heard, so nothing is synthesized.
            job.onEnd(.outputFailed(error))
            return
        }
        do throws(EspeakError) {
            do {
                try select(job.voice)
            } catch {
                // A tree in a language without an installed voice is still read, in the default voice.
                try select(.standard)
            }
            try apply(job.parameters)
        } catch {
            job.onEnd(.failed(.espeak(error)))
            return
        }
        let run = SynthesisRun(job: job)
        let flags = UInt32(espeakCHARS_UTF8) | (job.ssml ? UInt32(espeakSSML) : 0)
        let userData = Unmanaged.passUnretained(run).toOpaque()
        // SSML whose marks eSpeak NG would lose after a full stop goes in pieces, the lost marks
        // reported between them (see SSMLSegments); anything else in one call, as eSpeak reads it.
        let segments = (job.ssml ? SSMLSegments(job.text)?.segments : nil)
            ?? [SSMLSegments.Segment(marksBefore: [], text: job.text)]
        var status = ENS_OK
        for segment in segments {
            // A stop between pieces ends the job there: no further piece, no further mark.
            if run.stopped || job.isCancelled {
                run.stopped = true
                break
            }
            for name in segment.marksBefore {
                // Where the audio so far ends: the mark comes before the next piece's first chunk.
                job.onMark(SynthesisJob.Mark(name: name, sample: run.samples))
            }
            run.segmentStart = run.samples
            status = withExtendedLifetime(run) {
                segment.text.withCString { text in
                    espeak_ng_Synthesize(
                        text, strlen(text) + 1, 0, POS_CHARACTER, 0, flags, nil, userData)
                }
            }
            if run.stopped || status != ENS_OK { break }
        }
        if run.stopped {
            job.onEnd(.cancelled(samples: run.samples))
        } else if status != ENS_OK {
            job.onEnd(.failed(.espeak(.synthesisFailed(status: status.rawValue, message: EspeakError.message(for: status)))))
        } else {
            job.onEnd(.completed(samples: run.samples))
        }
    }

    /// Switches voice only when the choice changed (loading a voice costs time).
    func select(_ choice: VoiceChoice) throws(EspeakError) {
        guard choice != voiceChoice else { return }
        if let voice = loaded[choice], voice == loadedVoice {
            voiceChoice = choice
            return
        }
        let status: espeak_ng_STATUS
        let label: String
        switch choice {
        case .standard:
            label = "en"
            status = espeak_ng_SetVoiceByName("en")
        case .named(let name):
            label = name
            status = espeak_ng_SetVoiceByName(name)
        case .language(let tag):
            label = tag
            status = Self.setVoice(language: String(tag.lowercased().map { $0 == "_" ? "-" : $0 }))
        case .withVariant(let base, let variant):
            // The voice first (by name or language, as without a variant), then the same voice by
            // its identifier with "+variant", the form espeak_ng_SetVoiceByName loads variants in.
            guard let found = VoiceVariant.find(variant, in: variants) else {
                throw .voiceNotFound(variant, status: ENS_VOICE_NOT_FOUND.rawValue)
            }
            try select(base)
            let identifier = espeak_GetCurrentVoice()?.pointee.identifier.map { String(cString: $0) } ?? "en"
            let plain = identifier.split(separator: "+", maxSplits: 1).first.map(String.init) ?? identifier
            label = plain + "+" + found.identifier
            status = espeak_ng_SetVoiceByName(label)
        }
        guard status == ENS_OK else {
            throw .voiceNotFound(label, status: status.rawValue)
        }
        voiceChoice = choice
        currentVoiceName = espeak_GetCurrentVoice()?.pointee.name.map { String(cString: $0) } ?? label
        let file = espeak_GetCurrentVoice()?.pointee.identifier.map { String(cString: $0) } ?? label
        var variant = ""
        if case .withVariant(_, let name) = choice { variant = VoiceVariant.find(name, in: variants)?.identifier ?? name }
        loadedVoice = file + "|" + variant
        if loaded.count >= 64 { loaded.removeAll() }
        loaded[choice] = loadedVoice
        // A voice change resets prosody inside the library: apply it again.
        parameters = nil
    }

    /// Tries the full tag ("en-gb"), then the bare language ("en").
    private static func setVoice(language: String) -> espeak_ng_STATUS {
        var candidates = [language]
        if let dash = language.firstIndex(of: "-") {
            candidates.append(String(language[..<dash]))
        }
        var status = ENS_VOICE_NOT_FOUND
        for candidate in candidates {
            status = candidate.withCString { tag in
                var spec = espeak_VOICE()
                spec.languages = tag
                return espeak_ng_SetVoiceByProperties(&spec)
            }
            if status == ENS_OK { return status }
        }
        return status
    }

    func apply(_ wanted: VoiceParameters) throws(EspeakError) {
        let previous = parameters
        if previous?.rate != wanted.rate { try set(espeakRATE, "rate", wanted.rate) }
        if previous?.pitch != wanted.pitch { try set(espeakPITCH, "pitch", wanted.pitch) }
        if previous?.volume != wanted.volume { try set(espeakVOLUME, "volume", wanted.volume) }
        if previous?.pitchRange != wanted.pitchRange { try set(espeakRANGE, "pitch range", wanted.pitchRange) }
        if previous?.capitals != wanted.capitals {
            try set(espeakCAPITALS, "capitals", Self.capitalsValue(wanted.capitals))
        }
        if previous?.punctuation != wanted.punctuation {
            switch wanted.punctuation {
            case .none:
                try set(espeakPUNCTUATION, "punctuation", Int(espeakPUNCT_NONE.rawValue))
            case .all:
                try set(espeakPUNCTUATION, "punctuation", Int(espeakPUNCT_ALL.rawValue))
            case .some:
                Self.setPunctuationList(Self.somePunctuation)
                try set(espeakPUNCTUATION, "punctuation", Int(espeakPUNCT_SOME.rawValue))
            case .most:
                Self.setPunctuationList(Self.mostPunctuation)
                try set(espeakPUNCTUATION, "punctuation", Int(espeakPUNCT_SOME.rawValue))
            }
        }
        parameters = wanted
    }

    /// The symbols ``PunctuationLevel/some`` reads: those that carry meaning in UI text.
    static let somePunctuation = "#$%&*+/<=>@\\^_|~"
    /// The symbols ``PunctuationLevel/most`` reads: those of `some`, brackets, quotes and dashes;
    /// not the marks that end or split a sentence (. , ; : ! ?), whose pauses say them well enough.
    static let mostPunctuation = somePunctuation + "()[]{}\"'`-"

    /// Makes eSpeak NG's `PUNCT_SOME` level read exactly `symbols`.
    private static func setPunctuationList(_ symbols: String) {
        let list = Array(symbols.unicodeScalars.map { wchar_t($0.value) }) + [0]
        _ = list.withUnsafeBufferPointer { espeak_ng_SetPunctuationList($0.baseAddress) }
    }

    /// eSpeak NG's `espeakCAPITALS`: 0 nothing, 1 a sound, 2 the word "capital", 3 and above a
    /// pitch raise in Hz (20 is what `espeak-ng -k` suggests: clearly heard, still natural).
    static func capitalsValue(_ capitals: CapitalLetters) -> Int {
        switch capitals {
        case .none: 0
        case .icon: 1
        case .spell: 2
        case .pitch: 20
        }
    }

    private func set(_ parameter: espeak_PARAMETER, _ name: String, _ value: Int) throws(EspeakError) {
        let status = espeak_ng_SetParameter(parameter, Int32(clamping: value), 0)
        // eSpeak NG 1.51 stores the punctuation level and the capitals mode and then reports
        // EINVAL (measured: both do change what is spoken), so that code is not a failure for them.
        if parameter == espeakPUNCTUATION || parameter == espeakCAPITALS, status.rawValue == UInt32(EINVAL) { return }
        if status != ENS_OK {
            throw .parameterRejected(name: name, value: value, status: status.rawValue)
        }
    }
}
