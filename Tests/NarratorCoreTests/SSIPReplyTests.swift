import NarratorSSIP
import Testing

/// Replies and events byte for byte as the transcripts show speech-dispatcher sending them.
@Suite struct SSIPReplyTests {
    @Test func multiLineRepliesPutDataLinesBeforeTheText() {
        #expect(SSIPReply.messageQueued(id: 12).wire == "225-12\r\n225 OK MESSAGE QUEUED\r\n")
        #expect(SSIPReply.got("20").wire == "251-20\r\n251 OK GET RETURNED\r\n")
        #expect(SSIPReply.got("en-us").wire == "251-en-us\r\n251 OK GET RETURNED\r\n")
        #expect(SSIPReply.clientID(12).wire == "245-12\r\n245 OK CLIENT ID SENT\r\n")
        #expect(SSIPReply.outputModules(["espeak-ng"]).wire == "250-espeak-ng\r\n250 OK MODULE LIST SENT\r\n")
        #expect(SSIPReply.voices(["MALE1"]).wire == "249-MALE1\r\n249 OK VOICE LIST SENT\r\n")
        #expect(
            SSIPReply.synthesisVoices([SSIPVoice(name: "Afrikaans", language: "af"), SSIPVoice(name: "Afrikaans+Adam", language: "af", variant: "Adam")]).wire
                == "249-Afrikaans\taf\tnone\r\n249-Afrikaans+Adam\taf\tAdam\r\n249 OK VOICE LIST SENT\r\n")
        #expect(SSIPReply(251, "OK GET RETURNED", data: ["1"]) == .got("1"))
    }

    @Test func singleLineReplies() {
        #expect(SSIPReply.receivingData.wire == "230 OK RECEIVING DATA\r\n")
        #expect(SSIPReply.messageCanceled.wire == "227 OK MESSAGE CANCELED\r\n")
        #expect(SSIPReply.canceled.wire == "213 OK CANCELED\r\n")
        #expect(SSIPReply.stopped.wire == "210 OK STOPPED\r\n")
        #expect(SSIPReply.paused.wire == "211 OK PAUSED\r\n")
        #expect(SSIPReply.resumed.wire == "212 OK RESUMED\r\n")
        #expect(SSIPReply.bye.wire == "231 HAPPY HACKING\r\n")
        #expect(SSIPReply.blockBegin.wire == "260 OK INSIDE BLOCK\r\n")
        #expect(SSIPReply.blockEnd.wire == "261 OK OUTSIDE BLOCK\r\n")
        #expect(!SSIPReply.bye.isError)
        #expect(SSIPReply.couldNotSet(.rate).isError)
        #expect(SSIPReply.invalidCommand.isError)
    }

    /// The OK reply of every parameter, as the transcripts show them (208, 201, 202, 203, ...).
    @Test func setRepliesNameTheirParameter() {
        let expected: [(SSIPSetting, String)] = [
            (.clientName("a"), "208 OK CLIENT NAME SET\r\n"), (.language("C"), "201 OK LANGUAGE SET\r\n"),
            (.priority(.text), "202 OK PRIORITY SET\r\n"), (.rate(30), "203 OK RATE SET\r\n"),
            (.pitch(-20), "204 OK PITCH SET\r\n"), (.pitchRange(10), "263 OK PITCH RANGE SET\r\n"),
            (.volume(-50), "218 OK VOLUME SET\r\n"), (.punctuation(.all), "205 OK PUNCTUATION SET\r\n"),
            (.capitalLetters(.none), "206 OK CAP LET RECOGNITION SET\r\n"), (.spelling(true), "207 OK SPELLING SET\r\n"),
            (.voiceType(.female1), "209 OK VOICE SET\r\n"), (.synthesisVoice("German"), "209 OK VOICE SET\r\n"),
            (.outputModule("espeak-ng"), "216 OK OUTPUT MODULE SET\r\n"), (.ssmlMode(true), "219 OK SSML MODE SET\r\n"),
            (.notification(nil, true), "220 OK NOTIFICATION SET\r\n"), (.pauseContext(2), "217 OK PAUSE CONTEXT SET\r\n"),
        ]
        for (setting, wire) in expected {
            #expect(SSIPReply.set(setting).wire == wire)
        }
        #expect(Set(expected.map(\.0.name)) == Set(SSIPSettingName.allCases))
        #expect(SSIPReply.couldNotSet(.rate(0)).wire == "303 ERR COULDNT SET RATE\r\n")
        #expect(SSIPReply.couldNotSet(.voiceType).wire == "309 ERR COULDNT SET VOICE\r\n")
        #expect(SSIPReply.couldNotSet(.notification).wire == "316 ERR COULDNT SET NOTIFICATION\r\n")
        for name in SSIPSettingName.allCases {
            #expect((300..<400).contains(SSIPReply.couldNotSet(name).code))
            #expect((200..<300).contains(SSIPReply.set(name).code))
        }
    }

    /// raw_marks.log, spdsay_wait.log, spdsay_cancel.log: events are the message id, the client id,
    /// the mark (700 only), then the event's line.
    @Test func eventsAsTheTranscriptsShowThem() {
        #expect(SSIPEvent.indexMark(message: 5, client: 2, mark: "m1").wire == "700-5\r\n700-2\r\n700-m1\r\n700 INDEX MARK\r\n")
        #expect(SSIPEvent.indexMark(message: 90, client: 12, mark: "0:6").wire == "700-90\r\n700-12\r\n700-0:6\r\n700 INDEX MARK\r\n")
        #expect(SSIPEvent.begin(message: 2, client: 2).wire == "701-2\r\n701-2\r\n701 BEGIN\r\n")
        #expect(SSIPEvent.end(message: 22, client: 24).wire == "702-22\r\n702-24\r\n702 END\r\n")
        #expect(SSIPEvent.canceled(message: 16, client: 18).wire == "703-16\r\n703-18\r\n703 CANCELED\r\n")
        #expect(SSIPEvent.paused(message: 1, client: 3).wire == "704-1\r\n704-3\r\n704 PAUSED\r\n")
        #expect(SSIPEvent.resumed(message: 1, client: 3).wire == "705-1\r\n705-3\r\n705 RESUMED\r\n")
        #expect(SSIPEvent.canceled(message: 1, client: 1).kind == .cancel)
        #expect(SSIPEvent.indexMark(message: 1, client: 1, mark: "x").kind == .indexMarks)
    }

    @Test func lineBreaksInsideALineCannotSplitIt() {
        #expect(SSIPEvent.indexMark(message: 1, client: 1, mark: "a\r\nb").wire == "700-1\r\n700-1\r\n700-a  b\r\n700 INDEX MARK\r\n")
        #expect(SSIPReply.got("x\ny").wire == "251-x y\r\n251 OK GET RETURNED\r\n")
    }
}
