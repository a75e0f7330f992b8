import Glibc
import NarratorEngines
import NarratorModel
import NarratorSystem

/// Reads narratord's requests from standard input on a thread of its own, so that a `cancel`
/// reaches the queue while the synthesis thread is busy with the job it cancels.
enum RequestReader {
    /// A longer line is not a request narratord sends (its own messages are far smaller); it is
    /// skipped, with a log line, rather than held in memory.
    static let lineLimit = 16 << 20

    /// Starts the reader thread. At end of file the whole process exits at once with status 0,
    /// whatever it is synthesizing: narratord has closed the pipe and wants nothing more.
    static func start(queue: JobQueue, writer: FrameWriter) {
        DetachedThread.start(name: "flite-requests") {
            read(from: 0, queue: queue, writer: writer)
            _exit(0)
        }
    }

    /// Reads lines from `fd` until end of file (or an error reading, which is logged).
    static func read(from fd: Int32, queue: JobQueue, writer: FrameWriter) {
        var line: [UInt8] = []
        var skipping = false
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count: Int
            do throws(Errno) {
                count = try buffer.withUnsafeMutableBytes { bytes in Result { () throws(Errno) in try Syscall.read(fd, into: bytes) } }.get()
            } catch {
                writer.log("narrator-flite: reading requests failed: \(error)")
                return
            }
            if count == 0 { return }
            var start = 0
            while start < count {
                let newline = buffer[start..<count].firstIndex(of: UInt8(ascii: "\n"))
                let end = newline ?? count
                if !skipping { line.append(contentsOf: buffer[start..<end]) }
                if line.count > lineLimit {
                    writer.log("narrator-flite: skipped a request line longer than \(lineLimit) bytes")
                    line = []
                    skipping = true
                }
                if newline != nil {
                    if !skipping { handle(line, queue: queue, writer: writer) }
                    line.removeAll(keepingCapacity: true)
                    skipping = false
                }
                start = end + 1
            }
        }
    }

    /// Acts on one request line: a speak is queued, a cancel marks its job. A line that is not a
    /// request is logged and otherwise ignored, except a speak that still names its job, which
    /// gets an `F` frame in its turn.
    static func handle(_ bytes: [UInt8], queue: JobQueue, writer: FrameWriter) {
        let line = String(decoding: bytes, as: UTF8.self)
        if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { return }
        do throws(EngineRequestError) {
            switch try EngineRequest(line: line) {
            case .speak(let job, let text, let voice, let rate, let pitch, let volume):
                queue.add(.speak(job: job, text: text, voice: voice, rate: rate, pitch: pitch, volume: volume))
            case .cancel(let job):
                queue.cancel(job)
            }
        } catch {
            if let job = speakJob(in: line) {
                queue.add(.reject(job: job, message: "narrator-flite: \(error)"))
            } else {
                writer.log("narrator-flite: ignored a request line (\(error)): \(excerpt(line))")
            }
        }
    }

    /// The job number of a line that is a JSON speak request with a usable job, even if another
    /// field is wrong.
    static func speakJob(in line: String) -> UInt32? {
        guard let object = (try? JSONParser().parse(line))?.objectValue, object["op"]?.stringValue == "speak",
              let number = object["job"]?.numberValue, number == number.rounded(), number >= 0, number <= Double(UInt32.max)
        else { return nil }
        return UInt32(number)
    }

    /// The start of a line, for a log message that stays short.
    static func excerpt(_ line: String) -> String {
        line.count <= 80 ? line : String(line.prefix(80)) + "…"
    }
}
