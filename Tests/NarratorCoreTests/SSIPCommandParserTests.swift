import NarratorSSIP
import NarratorSpeechPlan
import Testing

/// Every command spd-say 0.11.4, python3-speechd 0.11.4 and Orca 43 sent in the transcripts.
@Suite struct SSIPCommandParserTests {
    @Test func spdSayCommands() {
        let expected: [(String, SSIPCommand)] = [
            (#"SET SELF CLIENT_NAME "root:spd-say:main""#, .set(.own, .clientName("root:spd-say:main"))),
            (#"SET SELF CLIENT_NAME "root:myapp:myconn""#, .set(.own, .clientName("root:myapp:myconn"))),
            ("SET SELF LANGUAGE C", .set(.own, .language("C"))),
            ("SET SELF LANGUAGE de", .set(.own, .language("de"))),
            ("SET SELF PRIORITY TEXT", .set(.own, .priority(.text))),
            ("SET SELF PRIORITY IMPORTANT", .set(.own, .priority(.important))),
            ("SET SELF PRIORITY MESSAGE", .set(.own, .priority(.message))),
            ("speak", .speak),
            ("SET SELF RATE 30", .set(.own, .rate(30))),
            ("SET SELF PITCH -20", .set(.own, .pitch(-20))),
            ("SET SELF PITCH_RANGE 10", .set(.own, .pitchRange(10))),
            ("SET SELF VOLUME -50", .set(.own, .volume(-50))),
            ("SET SELF VOICE_TYPE FEMALE1", .set(.own, .voiceType(.female1))),
            ("SET SELF SYNTHESIS_VOICE German", .set(.own, .synthesisVoice("German"))),
            ("SET SELF OUTPUT_MODULE espeak-ng", .set(.own, .outputModule("espeak-ng"))),
            ("SET SELF PUNCTUATION all", .set(.own, .punctuation(.all))),
            ("SET SELF SSML_MODE on", .set(.own, .ssmlMode(true))),
            ("SET SELF SPELLING on", .set(.own, .spelling(true))),
            ("CHAR a", .char("a")),
            ("KEY ctrl", .key("ctrl")),
            ("SOUND_ICON message", .soundIcon("message")),
            ("LIST OUTPUT_MODULES", .listOutputModules),
            ("LIST SYNTHESIS_VOICES", .listSynthesisVoices(language: nil, variant: nil)),
            ("CANCEL ALL", .cancel(.all)),
            ("STOP ALL", .stop(.all)),
            ("SET SELF NOTIFICATION end on", .set(.own, .notification(.end, true))),
            ("SET SELF NOTIFICATION all on", .set(.own, .notification(nil, true))),
            ("SET SELF NOTIFICATION cancel on", .set(.own, .notification(.cancel, true))),
            ("SET SELF NOTIFICATION index_marks on", .set(.own, .notification(.indexMarks, true))),
        ]
        for (line, command) in expected {
            #expect(SSIP.command(line) == command, "line \(line.debugDescription)")
        }
    }

    @Test func pythonSpeechdAndOrcaCommands() {
        let expected: [(String, SSIPCommand)] = [
            ("SET self CLIENT_NAME unknown:Orca:default", .set(.own, .clientName("unknown:Orca:default"))),
            ("HISTORY GET CLIENT_ID", .clientID),
            ("SET self NOTIFICATION begin on", .set(.own, .notification(.begin, true))),
            ("SET self NOTIFICATION pause on", .set(.own, .notification(.pause, true))),
            ("SET self NOTIFICATION resume off", .set(.own, .notification(.resume, false))),
            ("SET self PRIORITY message", .set(.own, .priority(.message))),
            ("SET self PUNCTUATION most", .set(.own, .punctuation(.most))),
            ("SET self CAP_LET_RECOGN none", .set(.own, .capitalLetters(.none))),
            ("SET self CAP_LET_RECOGN icon", .set(.own, .capitalLetters(.icon))),
            ("SET self RATE 2", .set(.own, .rate(2))),
            ("SET self PITCH 10", .set(.own, .pitch(10))),
            ("SET self VOLUME 100", .set(.own, .volume(100))),
            ("SET self LANGUAGE en-US", .set(.own, .language("en-US"))),
            ("SET self SYNTHESIS_VOICE English (Great Britain)", .set(.own, .synthesisVoice("English (Great Britain)"))),
            ("SET self SPELLING off", .set(.own, .spelling(false))),
            ("SET self PAUSE_CONTEXT 2", .set(.own, .pauseContext(2))),
            ("GET RATE", .get(.rate)),
            ("GET PITCH", .get(.pitch)),
            ("GET VOLUME", .get(.volume)),
            ("GET LANGUAGE", .get(.language)),
            ("GET OUTPUT_MODULE", .get(.outputModule)),
            ("GET PUNCTUATION", .get(.punctuation)),
            ("SPEAK", .speak),
            ("CANCEL self", .cancel(.own)),
            ("STOP self", .stop(.own)),
            ("PAUSE self", .pause(.own)),
            ("RESUME self", .resume(.own)),
            ("CHAR T", .char("T")),
            ("CHAR space", .char("space")),
            ("KEY shift_a", .key("shift_a")),
            ("KEY kp-enter", .key("kp-enter")),
            ("BLOCK BEGIN", .blockBegin),
            ("BLOCK END", .blockEnd),
            ("LIST VOICES", .listVoices),
            ("LIST SYNTHESIS_VOICES en", .listSynthesisVoices(language: "en", variant: nil)),
            ("LIST SYNTHESIS_VOICES de none", .listSynthesisVoices(language: "de", variant: "none")),
            ("HELP", .help),
            ("QUIT", .quit),
            ("SET 99999 RATE 0", .set(.client(99999), .rate(0))),
            ("CANCEL 99999", .cancel(.client(99999))),
        ]
        for (line, command) in expected {
            #expect(SSIP.command(line) == command, "line \(line.debugDescription)")
        }
    }

    @Test func commandsAreCaseInsensitiveAndArgumentsKeepTheirCase() {
        #expect(SSIP.command("Set Self Rate 0") == .set(.own, .rate(0)))
        #expect(SSIP.command("sEt sElF pRiOrItY NoTiFiCaTiOn") == .set(.own, .priority(.notification)))
        #expect(SSIP.command("set self voice_type child_female") == .set(.own, .voiceType(.childFemale)))
        #expect(SSIP.command("set self language EN-us") == .set(.own, .language("EN-us")))
        #expect(SSIP.command("char A") == .char("A"))
        #expect(SSIP.command("set self ssml_mode ON") == .set(.own, .ssmlMode(true)))
        #expect(SSIP.command("bye") == .quit)
    }

    @Test func whitespaceBetweenWordsIsLenient() {
        #expect(SSIP.command("SET SELF RATE 5\r") == .set(.own, .rate(5)))
        #expect(SSIP.command("  SET\tSELF   RATE  5  ") == .set(.own, .rate(5)))
        #expect(SSIP.command("SET self SYNTHESIS_VOICE  English  (Great Britain) \r") == .set(.own, .synthesisVoice("English  (Great Britain)")))
        #expect(SSIP.command("SPEAK\r\r") == .speak)
        // The Kelvin sign lower-cases to "k" in Unicode; SSIP's keywords are ASCII.
        #expect(SSIP.command("\u{212A}EY a") == nil)
    }

    @Test func clientNamesLoseOnlyTheirSurroundingQuotes() {
        #expect(SSIP.command(#"SET SELF CLIENT_NAME "a:b:c""#) == .set(.own, .clientName("a:b:c")))
        #expect(SSIP.command(#"SET SELF CLIENT_NAME a"b"#) == .set(.own, .clientName(#"a"b"#)))
        #expect(SSIP.command(#"SET SELF CLIENT_NAME ""#) == .set(.own, .clientName(#"""#)))
        #expect(SSIP.command(#"SET SELF CLIENT_NAME """#) == .set(.own, .clientName("")))
    }

    @Test func everyCommandsCanonicalLineParsesBackToIt() {
        let commands: [SSIPCommand] = [
            .speak, .char("a"), .key("shift_a"), .soundIcon("message"), .clientID,
            .set(.own, .clientName("root:spd-say:main")), .set(.own, .clientName(#""q""#)),
            .set(.all, .rate(-100)), .set(.client(7), .pitch(3)), .set(.own, .pitchRange(0)), .set(.own, .volume(100)),
            .set(.own, .language("en-US")), .set(.own, .synthesisVoice("English (Great Britain)")),
            .set(.own, .outputModule("espeak-ng")), .set(.own, .notification(nil, false)),
            .set(.own, .notification(.indexMarks, true)), .set(.own, .pauseContext(-4)),
            .cancel(.client(3)), .stop(.all), .pause(.own), .resume(.all),
            .listOutputModules, .listVoices, .listSynthesisVoices(language: nil, variant: nil),
            .listSynthesisVoices(language: "en", variant: "f1"), .blockBegin, .blockEnd, .help, .quit,
        ] + MessagePriority.allCases.map { .set(.own, .priority($0)) }
            + SSIPPunctuation.allCases.map { .set(.own, .punctuation($0)) }
            + SSIPCapitalLetters.allCases.map { .set(.own, .capitalLetters($0)) }
            + SSIPVoiceType.allCases.map { .set(.own, .voiceType($0)) }
            + SSIPGettable.allCases.map { .get($0) }
            + [true, false].flatMap { [SSIPCommand.set(.own, .spelling($0)), .set(.own, .ssmlMode($0))] }
        for command in commands {
            #expect(SSIP.command(command.line) == command, "line \(command.line.debugDescription)")
        }
    }

    @Test func blocksTakeSpeechAndMessageSettingsOnly() {
        let inside = ["SPEAK", "CHAR a", "KEY a", "SOUND_ICON x", "SET self RATE 5", "SET self LANGUAGE de", "SET self SSML_MODE on", "BLOCK END", "QUIT"]
        let outside = ["SET self PRIORITY text", "SET self CLIENT_NAME a", "SET self OUTPUT_MODULE m", "SET self SPELLING on",
                       "GET RATE", "HISTORY GET CLIENT_ID", "CANCEL self", "STOP all", "PAUSE self", "RESUME self", "LIST VOICES", "HELP"]
        for line in inside { #expect(SSIP.command(line)?.isAllowedInsideBlock == true, "line \(line)") }
        for line in outside { #expect(SSIP.command(line)?.isAllowedInsideBlock == false, "line \(line)") }
    }
}
