import NarratorBase
import NarratorEngines
import NarratorSpeechPlan

/// What the session is told once, at start-up: facts about the process and the machine that a
/// pure core cannot read for itself, and the daemon's options.
public struct SessionConfiguration: Sendable {
    /// The daemon's user: only it (and root) may connect.
    public var uid: UInt32
    public var pid: Int
    /// The socket path `status` shows (nil when systemd passed the socket).
    public var socket: String?
    /// When the daemon started, on the monotonic clock of the inputs.
    public var startedAt: MonotonicInstant
    /// Unix seconds minus monotonic seconds, to stamp log rows with wall-clock time.
    public var wallClockOffset: Double
    public var limits: DaemonLimits
    /// The installed voices (`voices`, and the names `set voice` accepts).
    public var voices: [InstalledVoice]
    /// The voice used when neither the user nor a tree's language picks one.
    public var standardVoice: String
    /// The announcement policy, and the trees with their own.
    public var policy: AnnouncementPolicy
    public var treePolicies: [String: AnnouncementPolicy]
    /// eSpeak NG's voice variants, which `set voice`, SSIP's `VOICE_TYPE` and `SYNTHESIS_VOICE` pick from.
    public var variants: [VoiceVariant] = []
    /// The engine processes found at start-up (Flite, Piper) with their voices; eSpeak NG's are ``voices``.
    public var otherEngines: [EngineVoices] = []
    /// Trees of at least this many elements have an update that rebuilds their reading order
    /// applied off the loop (``SessionEffect/prepareUpdate(_:_:)``); the daemon, which has a
    /// worker for it, sets ``PreparedUpdate/threshold``. Nil: every update is applied at once.
    public var updatesPreparedFrom: Int? = nil

    /// Every engine: eSpeak NG with ``voices``, then ``otherEngines``.
    public var engines: SpeechEngines { SpeechEngines(espeakVoices: voices, others: otherEngines) }

    /// Every voice with every variant (`voices`, SSIP's `LIST SYNTHESIS_VOICES`), made from the
    /// two lists when it is read rather than kept.
    public var catalog: VoiceCatalog { VoiceCatalog(voices: voices, variants: variants) }

    public init(
        uid: UInt32, pid: Int, socket: String?, startedAt: MonotonicInstant, wallClockOffset: Double, limits: DaemonLimits = DaemonLimits(),
        voices: [InstalledVoice] = [], standardVoice: String = "en", policy: AnnouncementPolicy = .default,
        treePolicies: [String: AnnouncementPolicy] = [:]
    ) {
        self.uid = uid
        self.pid = pid
        self.socket = socket
        self.startedAt = startedAt
        self.wallClockOffset = wallClockOffset
        self.limits = limits
        self.voices = voices
        self.standardVoice = standardVoice
        self.policy = policy
        self.treePolicies = treePolicies
    }
}
