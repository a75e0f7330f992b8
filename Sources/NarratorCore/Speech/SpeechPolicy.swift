/// The rules for what happens when an utterance arrives while another one plays.
///
/// | incoming \ playing | focus, value, hint, speak | low | default | high |
/// |--------------------|---------------------------|-----|---------|------|
/// | focus, value, speak| interrupt                 | interrupt | interrupt | wait |
/// | announcement low   | wait                      | wait | wait   | wait |
/// | announcement default | interrupt               | interrupt | interrupt | wait |
/// | announcement high  | interrupt                 | interrupt | interrupt | wait |
///
/// Hints never interrupt: they follow their focus utterance after a pause.
public enum SpeechPolicy {
    /// What an arriving utterance does to the one that is playing.
    public enum Arrival: Sendable, Hashable {
        case interrupt
        case wait
    }

    /// Decides whether `incoming` interrupts `playing` or waits for it.
    public static func arrival(of incoming: SpeechKind, while playing: SpeechKind) -> Arrival {
        if case .announcement(.high) = playing { return .wait }
        switch incoming {
        case .focus, .value, .speak: return .interrupt
        case .hint: return .wait
        case .announcement(.low): return .wait
        case .announcement(.default), .announcement(.high): return .interrupt
        }
    }

    /// The one ranking of all speech, announcements included: among waiting utterances (and among
    /// waiting announcements in their queue) higher goes first, ties keep arrival order.
    static func rank(_ kind: SpeechKind) -> Int {
        switch kind {
        case .announcement(.high): 4
        case .announcement(.default): 3
        case .focus, .value, .speak: 2
        case .hint: 1
        case .announcement(.low): 0
        }
    }
}
