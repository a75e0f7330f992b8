import NarratorSSIP
import Testing

@Suite struct SSIPSettingsTests {
    /// raw_errors.log: a new connection's GET RATE, VOICE_TYPE and LANGUAGE; python's GET OUTPUT_MODULE.
    @Test func defaultsAreWhatSpeechDispatcherReports() {
        let settings = SSIPSettings()
        #expect(settings.value(of: .rate) == "0")
        #expect(settings.value(of: .pitch) == "0")
        #expect(settings.value(of: .pitchRange) == "0")
        #expect(settings.value(of: .volume) == "100")
        #expect(settings.value(of: .voiceType) == "MALE1")
        #expect(settings.value(of: .language) == "en-US")
        #expect(settings.value(of: .outputModule) == "espeak-ng")
        #expect(settings.priority == .text)
        #expect(settings.notifications.isEmpty)
        #expect(!settings.ssmlMode && !settings.spelling)
    }

    /// python_speechd_callbacks.log and orca_run2_text_sayall.log: what GET returns after SET.
    @Test func getReturnsWhatWasSet() {
        var settings = SSIPSettings()
        for line in ["SET self RATE 20", "SET self PITCH -10", "SET self VOLUME 80", "SET self LANGUAGE en-US",
                     "SET self PUNCTUATION some", "SET self VOICE_TYPE FEMALE1", "SET self PITCH_RANGE 5",
                     #"SET SELF CLIENT_NAME "root:spd-say:main""#, "SET self SYNTHESIS_VOICE English (Great Britain)"] {
            guard case .set(_, let setting)? = SSIP.command(line) else {
                Issue.record("\(line) did not parse")
                continue
            }
            settings.apply(setting)
        }
        #expect(settings.value(of: .rate) == "20")
        #expect(settings.value(of: .pitch) == "-10")
        #expect(settings.value(of: .volume) == "80")
        #expect(settings.value(of: .language) == "en-us")
        #expect(settings.value(of: .punctuation) == "some")
        #expect(settings.value(of: .voiceType) == "FEMALE1")
        #expect(settings.value(of: .pitchRange) == "5")
        #expect(settings.clientName == "root:spd-say:main")
        #expect(settings.synthesisVoice == "English (Great Britain)")
    }

    /// spd-say -w: end on, all on, cancel on, all on, index_marks on, all on.
    @Test func notificationsAddUpAndAllSetsEveryKind() {
        var settings = SSIPSettings()
        settings.apply(.notification(.end, true))
        #expect(settings.notifications == [.end])
        #expect(settings.wants(.end(message: 1, client: 1)))
        #expect(!settings.wants(.begin(message: 1, client: 1)))
        settings.apply(.notification(nil, true))
        #expect(settings.notifications == Set(SSIPEventKind.allCases))
        settings.apply(.notification(.indexMarks, false))
        #expect(!settings.notifications.contains(.indexMarks))
        settings.apply(.notification(nil, false))
        #expect(settings.notifications.isEmpty)
    }
}
