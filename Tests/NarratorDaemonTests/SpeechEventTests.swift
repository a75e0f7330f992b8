@testable import NarratorDaemon
import NarratorSpeech
import NarratorSpeechPlan
import Testing

/// The player's reports reach the session through one mapping: each keeps its utterance and
/// what it says (SSIP's 701 BEGIN, 700 INDEX MARK and 702 END are built from these).
@Suite struct SpeechEventTests {
    @Test func eachSpeechReportBecomesTheSessionInputForTheSameFact() {
        let utterance = UtteranceID(7)
        guard case .speechBegan(utterance) = SpeechPlayer.Event.began(utterance).sessionInput else {
            Issue.record("began")
            return
        }
        guard case .speechReachedMark(utterance, "m1") = SpeechPlayer.Event.reachedMark(utterance, "m1").sessionInput else {
            Issue.record("reachedMark")
            return
        }
        guard case .speechReached(utterance, offset: 12) = SpeechPlayer.Event.reached(utterance, offset: 12).sessionInput else {
            Issue.record("reached")
            return
        }
        guard case .speechEnded(utterance, problem: "no audio") = SpeechPlayer.Event.ended(utterance, problem: "no audio").sessionInput else {
            Issue.record("ended")
            return
        }
        guard case .speechEnded(utterance, problem: nil) = SpeechPlayer.Event.ended(utterance, problem: nil).sessionInput else {
            Issue.record("ended without a problem")
            return
        }
    }
}
