import NarratorSSIP

/// Fuzzes the SSIP protocol layer as a connection drives it: the input is split on CRLF (only),
/// each line repaired to UTF-8; command lines go to `SSIPCommandParser`, and after a SPEAK the
/// lines go to an `SSIPMessageReader` until its final ".". Settings, replies, events and words
/// are produced for whatever parses.
///
/// Invariants: nothing crashes; every reply and event on the wire ends with CRLF and each of its
/// lines starts with a 3-digit code followed by "-" (data) or " " (the last line); a refused line
/// gets an error reply (3xx..5xx); a parsed command's canonical line parses back to the same
/// command; parsing is deterministic; the reader gives the message an independent dot-unstuffing
/// and joining gives, or tooLong past its limit; ranged settings stay within -100...100.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let limit = 200
    var reader = SSIPMessageReader(limit: limit)
    var settings = SSIPSettings()
    /// Set by SPEAK until the final "."; `message` holds the lines taken so far, for the oracle.
    var inData = false
    var message: [String] = []
    for bytes in crlfLines(UnsafeBufferPointer(start: data, count: size)).prefix(128) {
        let line = String(decoding: bytes, as: UTF8.self)
        if inData {
            let progress = reader.take(line)
            guard line != "." else {
                inData = false
                // The oracle: dot-unstuff each line, join with "\n", and bound by bytes.
                let expected = message.map { $0.utf8.starts(with: "..".utf8) ? String($0.unicodeScalars.dropFirst()) : $0 }.joined(separator: "\n")
                let wanted: SSIPMessageReader.Progress = expected.utf8.count > limit ? .tooLong(limit: limit) : .complete(expected)
                require(progress == wanted, "message \(message) read as \(progress), not \(wanted)")
                if case .complete(let text) = progress { _ = SSIPWords.spelled(text) }
                require(!reader.isReading, "the reader still reads after the final dot")
                message = []
                continue
            }
            require(progress == .more, "a line that is not \".\" ended the message: \(line.debugDescription)")
            message.append(line)
            continue
        }
        let result = SSIPCommandParser.parse(line)
        require(result == SSIPCommandParser.parse(line), "parsing \(line.debugDescription) twice differs")
        switch result {
        case .failure(let reply):
            require(reply.isError, "\(line.debugDescription) refused with a non-error reply \(reply.code)")
            require(reply.data.isEmpty, "a parse error carries data lines")
            checkWire(reply.wire)
        case .success(let command):
            let again = SSIPCommandParser.parse(command.line)
            require(again == .success(command), "\(line.debugDescription) parsed to \(command), whose line \(command.line.debugDescription) parses to \(again)")
            inData = perform(command, settings: &settings)
        }
    }
    return 0
}

/// Produces the replies, settings and words a server would for `command`; true for SPEAK, after
/// which lines are message data.
func perform(_ command: SSIPCommand, settings: inout SSIPSettings) -> Bool {
    switch command {
    case .speak:
        checkWire(SSIPReply.receivingData.wire)
        return true
    case .char(let c): _ = SSIPWords.character(c)
    case .key(let k): _ = SSIPWords.key(k)
    case .soundIcon(let name): _ = SSIPWords.soundIcon(name)
    case .set(_, let setting):
        settings.apply(setting)
        checkWire(SSIPReply.set(setting).wire)
        checkWire(SSIPReply.couldNotSet(setting).wire)
        for what in SSIPGettable.allCases {
            checkWire(SSIPReply.got(settings.value(of: what)).wire)
        }
        for value in [settings.rate, settings.pitch, settings.pitchRange, settings.volume] {
            require((-100...100).contains(value), "a ranged setting holds \(value)")
        }
        if case .synthesisVoice(let name) = setting {
            checkWire(SSIPReply.synthesisVoices([SSIPVoice(name: name, language: settings.language)]).wire)
        }
        if case .clientName(let name) = setting {
            let mark = SSIPEvent.indexMark(message: 1, client: 2, mark: name)
            checkWire(mark.wire)
            require(settings.wants(mark) == settings.notifications.contains(.indexMarks), "wants(_:) disagrees with notifications")
        }
    case .get(let what): checkWire(SSIPReply.got(settings.value(of: what)).wire)
    case .listSynthesisVoices(let language, let variant):
        checkWire(SSIPReply.synthesisVoices([SSIPVoice(name: "v", language: language ?? "", variant: variant ?? "none")]).wire)
    case .clientID, .cancel, .stop, .pause, .resume, .listOutputModules, .listVoices, .blockBegin, .blockEnd, .help, .quit:
        break
    }
    return false
}

/// Every line of `wire` ends with CRLF and starts with a 3-digit code, then "-" on data lines and
/// " " on the last.
func checkWire(_ wire: String) {
    let bytes = Array(wire.utf8)
    require(bytes.count >= 6 && bytes.suffix(2) == [13, 10], "reply does not end with CRLF: \(wire.debugDescription)")
    let lines = crlfLines(bytes)
    require(lines.count >= 1, "reply without lines")
    for (index, line) in lines.enumerated() {
        let isLast = index == lines.count - 1
        require(!line.contains(13) && !line.contains(10), "line holds a CR or LF: \(wire.debugDescription)")
        require(line.count >= 4 && line.prefix(3).allSatisfy { (48...57).contains($0) }, "line without a 3-digit code: \(wire.debugDescription)")
        require(line.count >= 4 && line[line.startIndex + 3] == (isLast ? 32 : 45), "line \(index) has the wrong separator: \(wire.debugDescription)")
    }
}

/// `bytes` split on CRLF only (a bare CR or LF stays in its line); a trailing CRLF ends the last line.
func crlfLines<C: Collection<UInt8>>(_ bytes: C) -> [C.SubSequence] where C.Index == Int {
    var lines: [C.SubSequence] = []
    var start = bytes.startIndex
    var i = bytes.startIndex
    while i < bytes.endIndex {
        if bytes[i] == 13, i + 1 < bytes.endIndex, bytes[i + 1] == 10 {
            lines.append(bytes[start..<i])
            i += 2
            start = i
        } else {
            i += 1
        }
    }
    if start < bytes.endIndex { lines.append(bytes[start..<bytes.endIndex]) }
    return lines
}
