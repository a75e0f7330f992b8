/// One frame an engine process writes to narratord (docs/engine-protocol.md): a 9-byte header
/// (type, job, payload length) and its payload, decoded into what it means.
public enum EngineFrame: Sendable, Hashable {
    /// The engine loaded its model and serves jobs; it lists its voices.
    case ready(EngineListing)
    /// A job's audio starts; its samples come at this rate.
    case begin(job: UInt32, sampleRate: Int)
    /// The audio that follows is the sentence starting at this UTF-8 byte offset of the job's text.
    case sentence(job: UInt32, offset: Int)
    /// PCM, signed 16-bit mono.
    case audio(job: UInt32, samples: [Int16])
    /// The job ended: completed, or cut by a cancel.
    case end(job: UInt32, cancelled: Bool)
    /// The job could not be synthesized; the engine serves the next one.
    case failed(job: UInt32, message: String)
    /// A line for narratord's journal.
    case log(String)

    /// The header's size in bytes.
    public static let headerSize = 9
    /// A payload larger than this is not a frame of a working engine (100 ms of audio is under 20 KiB).
    public static let maximumPayload = 1 << 22

    /// The frame's type letter.
    public var type: UInt8 {
        switch self {
        case .ready: UInt8(ascii: "R")
        case .begin: UInt8(ascii: "B")
        case .sentence: UInt8(ascii: "S")
        case .audio: UInt8(ascii: "A")
        case .end: UInt8(ascii: "E")
        case .failed: UInt8(ascii: "F")
        case .log: UInt8(ascii: "L")
        }
    }

    /// The job the frame is about (0 for `ready` and `log`).
    public var job: UInt32 {
        switch self {
        case .ready, .log: 0
        case .begin(let job, _), .sentence(let job, _), .audio(let job, _), .end(let job, _), .failed(let job, _): job
        }
    }

    /// The frame as the engine writes it.
    public var bytes: [UInt8] {
        var payload: [UInt8]
        switch self {
        case .ready(let listing): payload = Array(listing.json.compactText.utf8)
        case .begin(_, let rate): payload = Self.littleEndian(UInt32(clamping: rate))
        case .sentence(_, let offset): payload = Self.littleEndian(UInt32(clamping: offset))
        case .audio(_, let samples):
            payload = []
            payload.reserveCapacity(samples.count * 2)
            for sample in samples {
                let bits = UInt16(bitPattern: sample)
                payload.append(UInt8(truncatingIfNeeded: bits))
                payload.append(UInt8(truncatingIfNeeded: bits >> 8))
            }
        case .end(_, let cancelled): payload = [cancelled ? 1 : 0]
        case .failed(_, let message), .log(let message): payload = Array(message.utf8)
        }
        return [type] + Self.littleEndian(job) + Self.littleEndian(UInt32(payload.count)) + payload
    }

    static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8),
         UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 24)]
    }
}

/// Why bytes from an engine are not a frame: the engine is broken, and narratord gives it up.
public enum EngineFrameError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownType(UInt8)
    case payloadTooLarge(type: UInt8, length: Int)
    case malformed(type: UInt8, reason: String)

    public var description: String {
        switch self {
        case .unknownType(let type):
            "unknown frame type \(Self.describe(type))"
        case .payloadTooLarge(let type, let length):
            "frame \(Self.describe(type)) claims \(length) bytes, more than \(EngineFrame.maximumPayload)"
        case .malformed(let type, let reason):
            "frame \(Self.describe(type)): \(reason)"
        }
    }

    static func describe(_ type: UInt8) -> String {
        (0x21...0x7e).contains(type) ? "'\(Character(Unicode.Scalar(type)))'" : "0x\(String(type, radix: 16))"
    }
}

/// Cuts an engine's output into frames as bytes arrive (a read may end anywhere in a frame).
public struct EngineFrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0

    public init() {}

    /// Adds what was read and returns every frame now complete, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(EngineFrameError) -> [EngineFrame] {
        let (frames, error) = decode(bytes)
        if let error { throw error }
        return frames
    }

    /// Adds what was read and returns the frames now complete, in order, up to the first bytes
    /// that are not a frame, and why they are not: an engine that sent a sentence and then
    /// garbage in one write had that sentence begin, and what failed must start from it.
    public mutating func decode(_ bytes: some Sequence<UInt8>) -> (frames: [EngineFrame], error: EngineFrameError?) {
        buffer.append(contentsOf: bytes)
        var frames: [EngineFrame] = []
        var failure: EngineFrameError?
        while buffer.count - start >= EngineFrame.headerSize {
            let type = buffer[start]
            let job = Self.uint32(buffer, at: start + 1)
            let length = Int(Self.uint32(buffer, at: start + 5))
            guard length <= EngineFrame.maximumPayload else {
                failure = .payloadTooLarge(type: type, length: length)
                break
            }
            let end = start + EngineFrame.headerSize + length
            guard buffer.count >= end else { break }
            let payload = buffer[(start + EngineFrame.headerSize)..<end]
            do {
                frames.append(try Self.frame(type: type, job: job, payload: payload))
            } catch {
                failure = error
                break
            }
            start = end
        }
        if start > 0, start == buffer.count || start > 1 << 16 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        return (frames, failure)
    }

    /// Bytes of a frame not complete yet (at end of file: the engine died mid-frame).
    public var pendingBytes: Int { buffer.count - start }

    static func uint32(_ bytes: [UInt8], at index: Int) -> UInt32 {
        UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
    }

    static func frame(type: UInt8, job: UInt32, payload: ArraySlice<UInt8>) throws(EngineFrameError) -> EngineFrame {
        func number() throws(EngineFrameError) -> Int {
            guard payload.count == 4 else { throw .malformed(type: type, reason: "needs 4 bytes, got \(payload.count)") }
            return Int(uint32(Array(payload), at: 0))
        }
        switch type {
        case UInt8(ascii: "R"):
            do {
                return .ready(try EngineListing(json: String(decoding: payload, as: UTF8.self)))
            } catch {
                throw .malformed(type: type, reason: "\(error)")
            }
        case UInt8(ascii: "B"): return .begin(job: job, sampleRate: try number())
        case UInt8(ascii: "S"): return .sentence(job: job, offset: try number())
        case UInt8(ascii: "A"):
            guard payload.count % 2 == 0 else { throw .malformed(type: type, reason: "odd length \(payload.count) for 16-bit samples") }
            var samples: [Int16] = []
            samples.reserveCapacity(payload.count / 2)
            var index = payload.startIndex
            while index < payload.endIndex {
                samples.append(Int16(bitPattern: UInt16(payload[index]) | UInt16(payload[index + 1]) << 8))
                index += 2
            }
            return .audio(job: job, samples: samples)
        case UInt8(ascii: "E"):
            guard payload.count == 1, let flag = payload.first, flag <= 1 else { throw .malformed(type: type, reason: "needs one byte, 0 or 1") }
            return .end(job: job, cancelled: flag == 1)
        case UInt8(ascii: "F"): return .failed(job: job, message: String(decoding: payload, as: UTF8.self))
        case UInt8(ascii: "L"): return .log(String(decoding: payload, as: UTF8.self))
        default: throw .unknownType(type)
        }
    }
}
