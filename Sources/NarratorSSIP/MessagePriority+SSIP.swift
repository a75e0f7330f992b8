import NarratorSpeechPlan

extension MessagePriority {
    /// Parses SSIP's spelling, which clients send in any case (`TEXT`, `message`).
    public init?(ssip word: some StringProtocol) {
        self.init(rawValue: word.lowercased())
    }
}
