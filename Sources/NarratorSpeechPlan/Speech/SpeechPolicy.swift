/// The rules for what happens when an utterance arrives while another one plays.
///
/// | incoming \ playing | focus, value, hint, speak | ann. low | ann. default | ann. high | SSIP important | SSIP message | SSIP text | SSIP notification | SSIP progress |
/// |---|---|---|---|---|---|---|---|---|---|
/// | focus, value, speak | interrupt | interrupt | interrupt | wait | wait | interrupt | interrupt | interrupt | interrupt |
/// | announcement low | wait | wait | wait | wait | wait | wait | wait | wait | wait |
/// | announcement default, high | interrupt | interrupt | interrupt | wait | wait | interrupt | interrupt | interrupt | interrupt |
/// | SSIP important | interrupt | interrupt | interrupt | wait | wait | interrupt | interrupt | interrupt | interrupt |
/// | SSIP message | wait | wait | wait | wait | wait | wait | interrupt | interrupt | wait |
/// | SSIP text | wait | wait | wait | wait | wait | wait | interrupt | interrupt | wait |
/// | SSIP notification | dropped | dropped | dropped | dropped | dropped | dropped | dropped | interrupt | dropped |
/// | SSIP progress | wait | wait | wait | wait | wait | wait | wait | wait | wait |
///
/// Hints never interrupt: they follow their focus utterance after a pause. The SSIP rows are
/// Speech Dispatcher's priorities (a newer text replaces a waiting text, a progress message
/// replaces its client's waiting one: ``SpeechScheduler``); the user's own navigation (focus,
/// values) cuts other programs' ordinary speech, and an important message waits for nothing
/// but a high announcement or another important message.
///
/// Key echoes hold long text instead of cutting it. An SSIP CHAR or KEY (``KeyEcho/key``)
/// whose arrival would interrupt a playing SSIP message of route ``SpeechRoute/long``
/// (``KeyEcho/longText``) stops it, but the message is held: what is left of it, from the start
/// of the sentence (or index mark) the listener was hearing, plays again right after the key
/// echo and any key echoes that arrive or wait behind it, before anything else that waits. Its
/// client is told nothing of the hold (one `701 BEGIN`, one `702 END`). A key echo while the
/// rest plays holds it again, the same way. While it is held, speech that would have cut it
/// had it been playing (focus, values, announcements, a newer text or message, an important
/// message) drops it, and so do `CANCEL`, `STOP` and `PAUSE` of its client and `stop`: then
/// its client hears `703 CANCELED` (or `704 PAUSED`) once, as if it had been cut while playing.
public enum SpeechPolicy {
    /// What an arriving utterance does to the one that is playing.
    public enum Arrival: Sendable, Hashable {
        case interrupt
        case wait
    }

    /// Decides whether `incoming` interrupts `playing` or waits for it.
    public static func arrival(of incoming: SpeechKind, while playing: SpeechKind) -> Arrival {
        switch playing {
        case .announcement(.high), .ssip(.important): return .wait
        default: break
        }
        switch incoming {
        case .focus, .value, .speak, .ssip(.important): return .interrupt
        case .hint, .ssip(.progress): return .wait
        case .announcement(.low): return .wait
        case .announcement(.default), .announcement(.high): return .interrupt
        case .ssip(.message), .ssip(.text):
            switch playing {
            case .ssip(.text), .ssip(.notification): return .interrupt
            default: return .wait
            }
        case .ssip(.notification):
            // Only a notification gives way to a newer one; anything else makes it dropped (the scheduler's rule).
            return playing == .ssip(.notification) ? .interrupt : .wait
        }
    }

    /// Whether `incoming` holds `playing`, to go on after it, instead of cutting it: a key echo
    /// that interrupts (``arrival(of:while:)``) long text.
    public static func holds(_ playing: UtteranceRequest, for incoming: UtteranceRequest) -> Bool {
        incoming.echo == .key && playing.echo == .longText && arrival(of: incoming.kind, while: playing.kind) == .interrupt
    }

    /// The one ranking of all speech, announcements included: among waiting utterances (and among
    /// waiting announcements in their queue) higher goes first, ties keep arrival order.
    static func rank(_ kind: SpeechKind) -> Int {
        switch kind {
        case .announcement(.high), .ssip(.important): 4
        case .announcement(.default), .ssip(.message): 3
        case .focus, .value, .speak, .ssip(.text), .ssip(.progress): 2
        case .hint: 1
        case .announcement(.low), .ssip(.notification): 0
        }
    }
}
