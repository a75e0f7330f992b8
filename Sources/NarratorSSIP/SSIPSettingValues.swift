/// `SET … PUNCTUATION`: how much punctuation is spoken.
public enum SSIPPunctuation: String, Sendable, Hashable, CaseIterable {
    case all, most, some, none
}

/// `SET … CAP_LET_RECOGN`: how a capital letter is signalled.
public enum SSIPCapitalLetters: String, Sendable, Hashable, CaseIterable {
    case none, spell, icon
}

/// `SET … VOICE_TYPE`: Speech Dispatcher's eight generic voices (`LIST VOICES` lists them in this order).
public enum SSIPVoiceType: String, Sendable, Hashable, CaseIterable {
    case male1 = "MALE1", male2 = "MALE2", male3 = "MALE3"
    case female1 = "FEMALE1", female2 = "FEMALE2", female3 = "FEMALE3"
    case childMale = "CHILD_MALE", childFemale = "CHILD_FEMALE"
}

/// `SET SELF NOTIFICATION <kind> on|off`: the events a client can ask for (700..705).
public enum SSIPEventKind: String, Sendable, Hashable, CaseIterable {
    case indexMarks = "index_marks", begin, end, cancel, pause, resume
}
