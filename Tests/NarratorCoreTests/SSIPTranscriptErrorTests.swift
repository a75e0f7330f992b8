import NarratorSSIP
import Testing

/// raw_errors.log and raw_history.log: every line probe sent to speech-dispatcher 0.11.4 and its
/// reply, byte for byte (the log's out-of-order lines put back in order).
@Suite struct SSIPTranscriptErrorTests {
    /// (line sent, reply bytes), in the order of raw_errors.log (connection #27, client 1).
    static let rawErrors: [(String, String)] = [
        ("SET SELF CLIENT_NAME probe:raw:errors", "208 OK CLIENT NAME SET\r\n"),
        ("SET SELF NOTIFICATION ALL on", "220 OK NOTIFICATION SET\r\n"),
        ("FOO BAR", "500 ERR INVALID COMMAND\r\n"),
        ("", "500 ERR INVALID COMMAND\r\n"),
        ("SET SELF NOSUCH 1", "500 ERR INVALID COMMAND\r\n"),
        ("SET SELF RATE 500", "409 ERR RATE TOO HIGH\r\n"),
        ("SET SELF RATE abc", "511 ERR PARAMETER NOT A NUMBER\r\n"),
        ("SET SELF PRIORITY urgent", "408 ERR UNKNOWN PRIORITY\r\n"),
        ("SET SELF", "510 ERR MISSING PARAMETER\r\n"),
        ("SET", "510 ERR MISSING PARAMETER\r\n"),
        ("SET FOO RATE 1", "514 ERR PARAMETER INVALID\r\n"),
        ("GET CLIENT_NAME", "514 ERR PARAMETER INVALID\r\n"),
        ("GET", "510 ERR MISSING PARAMETER\r\n"),
        ("GET RATE", "251-0\r\n251 OK GET RETURNED\r\n"),
        ("GET PRIORITY", "514 ERR PARAMETER INVALID\r\n"),
        ("GET VOICE_TYPE", "251-MALE1\r\n251 OK GET RETURNED\r\n"),
        ("GET LANGUAGE", "251-en-US\r\n251 OK GET RETURNED\r\n"),
        ("HISTORY GET CLIENT_ID", "245-1\r\n245 OK CLIENT ID SENT\r\n"),
        ("HISTORY GET CLIENT_LIST", "380 ERR NOT YET IMPLEMENTED\r\n"),
        ("HISTORY GET LAST", "403 ERR NO MESSAGE\r\n"),
        ("HISTORY SORT ASC ID", "380 ERR NOT YET IMPLEMENTED\r\n"),
        ("HISTORY", "510 ERR MISSING PARAMETER\r\n"),
        ("HELP", """
            248-  SPEAK           -- say text \r
            248-  KEY             -- say a combination of keys \r
            248-  CHAR            -- say a character \r
            248-  SOUND_ICON      -- execute a sound icon \r
            248-  SET             -- set a parameter \r
            248-  GET             -- get a current parameter \r
            248-  LIST            -- list available arguments \r
            248-  HISTORY         -- commands related to history \r
            248-  QUIT            -- close the connection \r
            248 OK HELP SENT\r\n
            """),
        ("LIST VOICES", "249-MALE1\r\n249-MALE2\r\n249-MALE3\r\n249-FEMALE1\r\n249-FEMALE2\r\n249-FEMALE3\r\n249-CHILD_MALE\r\n249-CHILD_FEMALE\r\n249 OK VOICE LIST SENT\r\n"),
        ("LIST", "510 ERR MISSING PARAMETER\r\n"),
        ("LIST FOO", "514 ERR PARAMETER INVALID\r\n"),
        ("SET ALL RATE 0", "203 OK RATE SET\r\n"),
        ("SET 1 RATE 0", "203 OK RATE SET\r\n"),
        ("SET 99999 RATE 0", "303 ERR COULDNT SET RATE\r\n"),
        ("SET SELF NOTIFICATION bogus on", "316 ERR COULDNT SET NOTIFICATION\r\n"),
        ("SET SELF NOTIFICATION index_marks maybe", "514 ERR PARAMETER INVALID\r\n"),
        ("CANCEL 99999", "213 OK CANCELED\r\n"),
        ("CANCEL", "510 ERR MISSING PARAMETER\r\n"),
        ("STOP", "510 ERR MISSING PARAMETER\r\n"),
        ("PAUSE", "510 ERR MISSING PARAMETER\r\n"),
        ("RESUME", "510 ERR MISSING PARAMETER\r\n"),
        ("CANCEL self", "213 OK CANCELED\r\n"),
        ("STOP self", "210 OK STOPPED\r\n"),
        ("PAUSE all", "211 OK PAUSED\r\n"),
        ("RESUME all", "212 OK RESUMED\r\n"),
        ("CHAR", "510 ERR MISSING PARAMETER\r\n"),
        ("KEY", "510 ERR MISSING PARAMETER\r\n"),
        ("SOUND_ICON", "510 ERR MISSING PARAMETER\r\n"),
        ("SOUND_ICON nosuchicon", "225-1\r\n225 OK MESSAGE QUEUED\r\n"),
        ("KEY nosuchkey_xyz", "225-1\r\n225 OK MESSAGE QUEUED\r\n"),
        ("SET SELF VOICE_TYPE nosuch", "309 ERR COULDNT SET VOICE\r\n"),
        ("SET SELF OUTPUT_MODULE nosuch", "216 OK OUTPUT MODULE SET\r\n"),
        ("SET SELF LANGUAGE xx", "201 OK LANGUAGE SET\r\n"),
        ("SET SELF SYNTHESIS_VOICE nosuch voice", "209 OK VOICE SET\r\n"),
        ("SET SELF PUNCTUATION weird", "514 ERR PARAMETER INVALID\r\n"),
        ("SET SELF SSML_MODE maybe", "513 ERR PARAMETER NOT ON OR OFF\r\n"),
        ("set self rate 0", "203 OK RATE SET\r\n"),
        ("speak", "230 OK RECEIVING DATA\r\n"),
        // A bare "\n" does not end a line: the next CRLF does, and "0\n" is no number.
        ("SET SELF RATE 0\n", "511 ERR PARAMETER NOT A NUMBER\r\n"),
        ("SPEAK", "230 OK RECEIVING DATA\r\n"),
        ("QUIT", "231 HAPPY HACKING\r\n"),
    ]

    @Test func everyLineOfRawErrorsGetsSpeechDispatchersReply() {
        var settings = SSIPSettings()
        for (line, reply) in Self.rawErrors {
            #expect(SSIP.answer(line, settings: &settings) == reply, "line \(line.debugDescription)")
        }
    }

    /// raw_history.log (connection #29, client 3): narratord keeps no history, as if it were empty.
    @Test func historyCommandsGetTheRepliesOfAnEmptyHistory() {
        var settings = SSIPSettings()
        let expected: [(String, String)] = [
            ("HISTORY GET CLIENT_LIST", "380 ERR NOT YET IMPLEMENTED\r\n"),
            ("HISTORY GET CLIENT_ID", "245-3\r\n245 OK CLIENT ID SENT\r\n"),
            ("HISTORY GET LAST", "403 ERR NO MESSAGE\r\n"),
            ("HISTORY GET MESSAGE_LIST self 0 10", "510 ERR MISSING PARAMETER\r\n"),
            ("HISTORY GET MESSAGE 1", "380 ERR NOT YET IMPLEMENTED\r\n"),
            ("HISTORY SAY 1", "406 ERR ID DOESNT EXIST\r\n"),
            ("HISTORY CURSOR GET", "403 ERR NO MESSAGE\r\n"),
            ("HISTORY SORT asc id", "380 ERR NOT YET IMPLEMENTED\r\n"),
            ("HISTORY SET self CURSOR first", "500 ERR INVALID COMMAND\r\n"),
        ]
        for (line, reply) in expected {
            #expect(SSIP.answer(line, settings: &settings, client: 3) == reply, "line \(line.debugDescription)")
        }
    }

    @Test func outOfRangeNumbersGetTheirParametersError() {
        #expect(SSIP.error("SET SELF RATE 101") == "409 ERR RATE TOO HIGH\r\n")
        #expect(SSIP.error("SET SELF RATE -101") == "410 ERR RATE TOO LOW\r\n")
        #expect(SSIP.error("SET SELF PITCH 200") == "411 ERR PITCH TOO HIGH\r\n")
        #expect(SSIP.error("SET SELF PITCH -200") == "412 ERR PITCH TOO LOW\r\n")
        // speech-dispatcher's msg.h words VOLUME's errors as PITCH's; only the code differs.
        #expect(SSIP.error("SET SELF VOLUME 101") == "413 ERR PITCH TOO HIGH\r\n")
        #expect(SSIP.error("SET SELF VOLUME -101") == "414 ERR PITCH TOO LOW\r\n")
        #expect(SSIP.error("SET SELF PITCH_RANGE 101") == "415 ERR PITCH RANGE TOO HIGH\r\n")
        #expect(SSIP.error("SET SELF PITCH_RANGE -101") == "416 ERR PITCH RANGE TOO LOW\r\n")
        #expect(SSIP.error("SET SELF RATE 99999999999999999999999") == "409 ERR RATE TOO HIGH\r\n")
        #expect(SSIP.error("SET SELF RATE -99999999999999999999999") == "410 ERR RATE TOO LOW\r\n")
        #expect(SSIP.command("SET SELF RATE 100") == .set(.own, .rate(100)))
        #expect(SSIP.command("SET SELF VOLUME -100") == .set(.own, .volume(-100)))
    }

    @Test func malformedArgumentsGetSpeechDispatchersErrors() {
        #expect(SSIP.error("SET SELF RATE +5") == "511 ERR PARAMETER NOT A NUMBER\r\n")
        #expect(SSIP.error("SET SELF RATE 1.5") == "511 ERR PARAMETER NOT A NUMBER\r\n")
        #expect(SSIP.error("SET SELF RATE -") == "511 ERR PARAMETER NOT A NUMBER\r\n")
        #expect(SSIP.error("SET SELF RATE") == "510 ERR MISSING PARAMETER\r\n")
        #expect(SSIP.error("SET SELF SPELLING yes") == "513 ERR PARAMETER NOT ON OR OFF\r\n")
        #expect(SSIP.error("SET SELF CAP_LET_RECOGN loud") == "514 ERR PARAMETER INVALID\r\n")
        #expect(SSIP.error("SET SELF NOTIFICATION end") == "510 ERR MISSING PARAMETER\r\n")
        #expect(SSIP.error("SET ALL NOTIFICATION end on") == "514 ERR PARAMETER INVALID\r\n")
        #expect(SSIP.error("SET ALL CLIENT_NAME x:y:z") == "514 ERR PARAMETER INVALID\r\n")
        #expect(SSIP.error("SET ALL PRIORITY text") == "301 ERR COULDNT SET PRIORITY\r\n")
        #expect(SSIP.error("SET -1 RATE 0") == "514 ERR PARAMETER INVALID\r\n")
        #expect(SSIP.error("CANCEL 0") == "406 ERR ID DOESNT EXIST\r\n")
        #expect(SSIP.error("STOP -3") == "406 ERR ID DOESNT EXIST\r\n")
        #expect(SSIP.error("PAUSE nobody") == "514 ERR PARAMETER INVALID\r\n")
        #expect(SSIP.error("BLOCK") == "510 ERR MISSING PARAMETER\r\n")
        #expect(SSIP.error("BLOCK MIDDLE") == "514 ERR PARAMETER INVALID\r\n")
        #expect(SSIP.error("HISTORY SAY x") == "511 ERR PARAMETER NOT A NUMBER\r\n")
        #expect(SSIP.error("SPEAKING") == "500 ERR INVALID COMMAND\r\n")
        #expect(SSIP.error("   ") == "500 ERR INVALID COMMAND\r\n")
        #expect(SSIP.error("\r") == "500 ERR INVALID COMMAND\r\n")
    }
}
