import NarratorCore
import NarratorSpeech

extension SpeechPlayer.Event {
    /// What the session is told of this report: the one place the player's words for speech
    /// beginning, reaching a mark or a sentence, and ending become the session's.
    var sessionInput: SessionInput {
        switch self {
        case .began(let utterance): return .speechBegan(utterance)
        case .reachedMark(let utterance, let mark): return .speechReachedMark(utterance, mark)
        case .reached(let utterance, let offset): return .speechReached(utterance, offset: offset)
        case .ended(let utterance, let problem): return .speechEnded(utterance, problem: problem)
        case .outputChanged(let status): return .outputChanged(status)
        case .engineChanged(let engine, let health): return .engineChanged(engine, health)
        }
    }
}
