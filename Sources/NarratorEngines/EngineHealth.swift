/// How one speech engine is doing, as `status` reports it and the journal says once per change.
public enum EngineHealth: Sendable, Hashable {
    /// An engine process nobody has asked to speak yet: not started, costing nothing.
    case notStarted
    /// Its process was stopped after going unused for `engine-idle` seconds, to give its memory
    /// back; the next job starts it again, as the first did.
    case idle
    /// Its process is starting (loading its model); jobs wait for it.
    case starting
    /// Serving jobs (eSpeak NG, in narratord's process, is always here).
    case ready
    /// It crashed or stopped answering (`reason`) and is being started again (`attempt`, from
    /// 1); meanwhile its speech is spoken by the fallback engine.
    case restarting(reason: String, attempt: Int)

    /// One word for `status` and logs.
    public var state: String {
        switch self {
        case .notStarted: "not started"
        case .idle: "idle"
        case .starting: "starting"
        case .ready: "ready"
        case .restarting: "restarting"
        }
    }

    /// Whether a job given to the engine now would be spoken by it (not by the fallback).
    public var serves: Bool {
        switch self {
        case .notStarted, .idle, .starting, .ready: true
        case .restarting: false
        }
    }
}

/// One engine in `status`: its name and health.
public struct EngineStatus: Sendable, Hashable {
    public var name: String
    public var health: EngineHealth

    public init(name: String, health: EngineHealth) {
        self.name = name
        self.health = health
    }

    /// "piper: restarting (crashed: killed by signal 9), attempt 2".
    public var summary: String {
        switch health {
        case .restarting(let reason, let attempt): "\(name): restarting (\(reason)), attempt \(attempt)"
        default: "\(name): \(health.state)"
        }
    }
}
