import NarratorModel

/// What narratord asks of an engine process, one JSON line each (docs/engine-protocol.md).
public enum EngineRequest: Sendable, Hashable {
    /// Synthesize plain `text` in `voice` with this prosody.
    case speak(job: UInt32, text: String, voice: String, rate: Int, pitch: Int, volume: Int)
    /// Stop `job` as soon as possible; its `end` frame says cancelled.
    case cancel(job: UInt32)

    /// The request as one line, newline included.
    public var line: String {
        let object: JSONValue
        switch self {
        case .speak(let job, let text, let voice, let rate, let pitch, let volume):
            object = [
                "op": "speak", "job": .number(Double(job)), "text": .string(text), "voice": .string(voice),
                "rate": .number(Double(rate)), "pitch": .number(Double(pitch)), "volume": .number(Double(volume)),
            ]
        case .cancel(let job):
            object = ["op": "cancel", "job": .number(Double(job))]
        }
        return object.compactText + "\n"
    }

    /// Parses one request line (what an engine written in Swift reads).
    public init(line: String) throws(EngineRequestError) {
        let value: JSONValue
        do { value = try JSONParser().parse(line) } catch { throw .notJSON("\(error)") }
        guard let object = value.objectValue else { throw .invalid(field: "$", reason: "not an object") }
        func string(_ key: String) throws(EngineRequestError) -> String {
            guard let text = object[key]?.stringValue else { throw .invalid(field: key, reason: "must be a string") }
            return text
        }
        func integer(_ key: String) throws(EngineRequestError) -> Int {
            guard let number = object[key]?.numberValue, number == number.rounded(), abs(number) < 1e15 else {
                throw .invalid(field: key, reason: "must be an integer")
            }
            return Int(number)
        }
        let job = try integer("job")
        guard (0...Int(UInt32.max)).contains(job) else { throw .invalid(field: "job", reason: "must fit in 32 bits") }
        switch try string("op") {
        case "speak":
            self = .speak(
                job: UInt32(job), text: try string("text"), voice: try string("voice"),
                rate: try integer("rate"), pitch: try integer("pitch"), volume: try integer("volume"))
        case "cancel":
            self = .cancel(job: UInt32(job))
        case let other:
            throw .invalid(field: "op", reason: "unknown operation \"\(other)\"")
        }
    }
}

/// Why a request line is not one an engine understands.
public enum EngineRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    case notJSON(String)
    case invalid(field: String, reason: String)

    public var description: String {
        switch self {
        case .notJSON(let reason): "request is not JSON: \(reason)"
        case .invalid(let field, let reason): "request field \(field): \(reason)"
        }
    }
}
