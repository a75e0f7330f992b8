import NarratorBridge
import NarratorDBus

/// Fuzzes what the AT-SPI bridge reads from every application's own socket and from the bus:
/// the authentication's answer (`DBusHandshake`) and the messages after it (`DBusMessageReader`,
/// `DBusWire`'s decoder), as a connection meets them, split however the reads split them.
///
/// The input's first byte chooses how the rest is cut into reads (1 to 64 bytes each); the rest
/// is what the server sends. Invariants: nothing crashes or traps; the handshake's outcome does not
/// depend on how the bytes were cut (the bytes after an OK are the same; a refusal says the same),
/// and once decided it stays decided; the reader gives the same messages, and the same error, for
/// the bytes whole and cut (a reader is not asked again after an error: the bridge drops the
/// connection).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let cut = Int(data[0] % 64) + 1
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let reads = stride(from: 0, to: bytes.count, by: cut).map { Array(bytes[$0..<min($0 + cut, bytes.count)]) }

    // The handshake, fed whole and fed read by read.
    var whole = DBusHandshake()
    let wholeStep = whole.feed(bytes)
    var pieces = DBusHandshake()
    var pieceStep = DBusHandshake.Step.waiting
    var afterAnswer: [UInt8] = []
    for read in reads {
        if pieceStep != .waiting {
            afterAnswer += read
            continue
        }
        pieceStep = pieces.feed(read)
    }
    switch (wholeStep, pieceStep) {
    case (.waiting, .waiting):
        break
    case (.accepted(let rest), .accepted(let restOfRead)):
        require(rest == restOfRead + afterAnswer, "the bytes after OK differ when cut every \(cut) bytes")
    case (.refused(let why), .refused(let whyCut)):
        require(why == whyCut, "refused as \(why.debugDescription) whole but \(whyCut.debugDescription) cut every \(cut) bytes")
    default:
        require(false, "the handshake ended \(wholeStep) whole but \(pieceStep) cut every \(cut) bytes")
    }
    if wholeStep != .waiting {
        require(whole.feed([13, 10]) == .refused("the server's answer was already read"), "a decided handshake read more")
    }

    // The same bytes as messages (as if the handshake had been accepted before them).
    let wholeMessages = messages([bytes])
    let cutMessages = messages(reads)
    // Compared as written out: a double that is NaN is not equal to itself.
    require("\(wholeMessages.decoded)" == "\(cutMessages.decoded)", "messages differ when the bytes are cut every \(cut) bytes")
    require(wholeMessages.error == cutMessages.error, "the error differs when the bytes are cut every \(cut) bytes")
    // And through a reader whose limit (16 to 1,024 bytes) drops the longer messages as they come,
    // as the bridge's does at 8 MiB: the same, whole and cut; besides the errors it makes of replies
    // over the limit (as soon as their header is in), only messages the reader without a limit gives.
    let limit = 16 + Int(data[0]) * 4
    let wholeLimited = messages([bytes], limit: limit), cutLimited = messages(reads, limit: limit)
    require("\(wholeLimited.decoded)" == "\(cutLimited.decoded)", "messages over a \(limit)-byte limit differ when the bytes are cut every \(cut) bytes")
    require(wholeLimited.error == cutLimited.error, "the error over a \(limit)-byte limit differs when the bytes are cut every \(cut) bytes")
    if wholeMessages.error == nil {
        var unlimited = wholeMessages.decoded.map { "\($0)" }[...]
        for message in wholeLimited.decoded where message.errorName != DBusIncoming.tooLarge {
            let text = "\(message)"
            while let first = unlimited.first, first != text { unlimited = unlimited.dropFirst() }
            require(!unlimited.isEmpty, "a \(limit)-byte limit gave a message the reader without one does not")
            unlimited = unlimited.dropFirst()
        }
    }
    // Reading what was decoded, as the bridge does, traps on nothing.
    for message in wholeMessages.decoded {
        _ = message.errorMessage
        _ = message.body[0]?.items?.count
    }
    return 0
}

/// Every message the reader gives for `reads`, appended one by one and drained after each, until
/// its first error, which ends the connection.
func messages(_ reads: [[UInt8]], limit: Int = DBusMessageReader.maximumMessageBytes) -> (decoded: [DBusIncoming], error: DBusWireError?) {
    var reader = DBusMessageReader(messageLimit: limit)
    var decoded: [DBusIncoming] = []
    for read in reads {
        reader.append(read)
        do {
            while let message = try reader.next() { decoded.append(message) }
        } catch {
            return (decoded, error)
        }
    }
    return (decoded, nil)
}
