import Foundation
import NarratorPulseHarness
import NarratorSystem
import Synchronization

/// What the listener hears, timed: `parec` records the private null sink's monitor into a pipe,
/// and a reader thread notes the monotonic time at which each block arrives. The null sink plays
/// on the system's monotonic clock and the monitor gets every sample it renders (digital silence
/// included), so sample `i` was played at `offset + i / rate`; `offset` is the earliest arrival
/// seen (arrival time less the samples before it), taken near `i` so that a block lost by an
/// overloaded recorder only shifts its own neighbourhood.
///
/// Both the systems measured and the floor (``ClickFloor``) are timed by the same clock, so the
/// recorder's own delay cancels in "above the floor".
final class SinkRecorder: Sendable {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// A sample at or above this magnitude is sound: the null sink mixes digital zeros when
    /// nothing plays, so anything louder than -50 dBFS is somebody speaking.
    static let audible: Int16 = 100

    /// How far ahead of its playhead the null sink may render (its block, a few milliseconds
    /// with the low-latency recorder): a sample heard at `t` can arrive, and be timed, before
    /// `t`, so searches for what followed a request start this much before it.
    static let lead = 0.05

    let rate: Int
    /// parec, or nil when the sink writes to the FIFO itself (a pipe sink).
    private let process: ChildProcess?
    private let reader: JoinableThread
    private let fifo: String

    private struct State {
        var samples: [Int16] = []
        /// (monotonic seconds, samples received by then), one per block read.
        var arrivals: [(at: Double, count: Int)] = []
        var ended = false
    }
    /// The one owner of what was recorded, shared by the reader thread and the measuring thread.
    private final class Recording: Sendable {
        let state = Mutex(State())
        let stopping = Mutex(false)
    }
    private let recording = Recording()

    /// Starts recording `pulse`'s sink monitor; returns once the first samples have arrived.
    init(pulse: PrivatePulseServer, directory: String) throws {
        rate = pulse.sampleRate
        fifo = directory + "/sink-monitor.fifo"
        unlink(fifo)
        guard mkfifo(fifo, 0o600) == 0 else { throw Failure(description: "mkfifo \(fifo): \(String(cString: strerror(errno)))") }
        // The read end is opened first (without waiting for a writer), so that parec's open of
        // the write end, in the child before it runs, finds a reader and does not block the spawn.
        let fd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "open \(fifo): \(String(cString: strerror(errno)))") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        // stdout is the pipe: parec writes each block as it gets it, with no file layer between.
        do {
            process = try ChildProcess(
                "/usr/bin/parec",
                ["--device=\(pulse.sinkName).monitor", "--raw", "--format=s16le", "--rate=\(pulse.sampleRate)", "--channels=1",
                 "--latency-msec=5"],
                environment: pulse.environment, output: fifo, error: directory + "/parec.stderr")
        } catch {
            Glibc.close(fd)
            throw error
        }
        reader = Self.read(fd, into: recording)
        let deadline = Clock.now() + 10
        while count < rate / 2 {
            guard Clock.now() < deadline, !recording.state.withLock({ $0.ended }) else {
                stop()
                throw Failure(description: "parec recorded nothing from \(pulse.sinkName).monitor within 10 s; see \(directory)/parec.stderr")
            }
            usleep(5_000)
        }
        // The first blocks can bring a backlog at once (what the monitor held before parec read
        // it), which would set the clock early: it is timed from the blocks after half a second.
        recording.state.withLock { $0.arrivals.removeAll() }
    }

    /// Hears a pipe sink (`PrivatePulseServer(pipeSink:)`): reads what the sink writes to its
    /// FIFO, with no client of the server, so that the sink can suspend while it is recorded.
    /// Nothing arrives while it is suspended; ``firstAudible(resumingAt:)`` times what follows.
    init(pipeOf pulse: PrivatePulseServer) throws {
        guard let pipe = pulse.pipe else { throw Failure(description: "the server has no pipe sink") }
        rate = pulse.sampleRate
        fifo = pipe
        let fd = open(fifo, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "open \(fifo): \(String(cString: strerror(errno)))") }
        process = nil
        reader = Self.read(fd, into: recording)
    }

    /// The reader thread: each block read from `fd` is appended with its arrival time.
    private static func read(_ fd: Int32, into recording: Recording) -> JoinableThread {
        JoinableThread {
            defer {
                Glibc.close(fd)
                recording.state.withLock { $0.ended = true }
            }
            var buffer = [UInt8](repeating: 0, count: 8_192)
            var carry: UInt8?
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                let at = Clock.now()
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                var bytes = buffer[0..<count]
                var samples: [Int16] = []
                samples.reserveCapacity(count / 2 + 1)
                if let low = carry, let high = bytes.first {
                    samples.append(Int16(bitPattern: UInt16(low) | UInt16(high) << 8))
                    bytes = bytes.dropFirst()
                    carry = nil
                }
                var index = bytes.startIndex
                while index + 1 < bytes.endIndex {
                    samples.append(Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8))
                    index += 2
                }
                if index < bytes.endIndex { carry = bytes[index] }
                recording.state.withLock { recorded in
                    recorded.samples += samples
                    recorded.arrivals.append((at, recorded.samples.count))
                }
            }
        }
    }

    deinit { stop() }

    /// Ends the recording: parec is killed, so the reader sees the end of the pipe and is joined.
    func stop() {
        guard recording.stopping.withLock({ (stopping: inout Bool) -> Bool in
            defer { stopping = true }
            return !stopping
        }) else { return }
        if let process {
            _ = try? process.kill()
            reader.join()
            unlink(fifo)
        }
        // A pipe sink's FIFO stays open in the server until it stops; its reader ends with it.
    }

    /// Samples received so far.
    var count: Int { recording.state.withLock { $0.samples.count } }

    /// The monotonic time at which sample `index` was played.
    func time(ofSample index: Int) -> Double {
        Double(index) / Double(rate) + offset(near: index)
    }

    /// The first sample played at or after `time` (it may not have arrived yet).
    func sample(at time: Double) -> Int {
        // The offset depends (slightly) on the index; one refinement from a global guess settles it.
        let guess = Int(((time - offset(near: count)) * Double(rate)).rounded(.up))
        return max(0, Int(((time - offset(near: guess)) * Double(rate)).rounded(.up)))
    }

    /// The earliest arrival, less the samples before it, over the blocks within three seconds of `index`.
    private func offset(near index: Int) -> Double {
        let span = 3 * rate
        return recording.state.withLock { recorded in
            var best = Double.infinity
            for arrival in recorded.arrivals.reversed() {
                if arrival.count < index - span { break }
                if arrival.count > index + span { continue }
                best = min(best, arrival.at - Double(arrival.count) / Double(rate))
            }
            if best.isFinite { return best }
            return recorded.arrivals.map { $0.at - Double($0.count) / Double(rate) }.min() ?? 0
        }
    }

    /// For a sink that was suspended (a pipe sink writes nothing then): the time of the first
    /// audible sample after the first `start` samples, which had all arrived when the request was
    /// sent, timed only by the blocks that arrived after them: the earliest arrival less the
    /// samples before it since `start`, as ``time(ofSample:)`` does for a sink that never stops.
    /// Waits up to `timeout` for it, and 0.3 s more for the blocks that time it; nil if none.
    func firstAudible(resumingAt start: Int, timeout: Double = 5) -> Double? {
        let deadline = Clock.now() + timeout
        var found: Int?
        while found == nil {
            found = recording.state.withLock { recorded in
                recorded.samples.count > start ? recorded.samples[start...].firstIndex { $0.magnitude >= Self.audible.magnitude } : nil
            }
            if found == nil {
                if Clock.now() > deadline { return nil }
                usleep(1_000)
            }
        }
        Thread.sleep(forTimeInterval: 0.3)
        return recording.state.withLock { recorded -> Double? in
            let resumed = recorded.arrivals.filter { $0.count > start }
                .map { $0.at - Double($0.count - start) / Double(rate) }.min()
            return resumed.map { $0 + Double(found! - start) / Double(rate) }
        }
    }

    /// Samples at full scale (|x| >= 32767) so far, and the longest run of them: a flat top is clipping.
    func fullScale() -> (count: Int, longestRun: Int) {
        recording.state.withLock { recorded in
            var count = 0, run = 0, longest = 0
            for sample in recorded.samples {
                if sample >= 32_767 || sample <= -32_767 {
                    count += 1
                    run += 1
                    longest = max(longest, run)
                } else {
                    run = 0
                }
            }
            return (count, longest)
        }
    }

        /// Where the sink was audible around `time` (from ``lead`` before it), for a failure's message:
    /// what a search that found nothing looked at.
    func describe(around time: Double) -> String {
        let start = sample(at: time - Self.lead)
        return recording.state.withLock { recorded in
            let audible = recorded.samples.indices.filter { recorded.samples[$0].magnitude >= Self.audible.magnitude }
            let before = audible.last { $0 < start }
            let after = audible.first { $0 >= start }
            return "searched from sample \(start) of \(recorded.samples.count) (\(recorded.arrivals.count) blocks timed); "
                + "last audible before it: \(before.map(String.init) ?? "none"), first after: \(after.map(String.init) ?? "none")"
        }
    }

    /// The time of the first audible sample played after `time` (from ``lead`` before it), waiting
    /// up to `timeout` seconds for it to arrive; nil when nothing was heard.
    func firstAudible(after time: Double, timeout: Double = 5) -> Double? {
        let start = sample(at: time - Self.lead)
        let deadline = Clock.now() + timeout
        var scanned = start
        while true {
            let found = recording.state.withLock { recorded -> Int? in
                guard scanned < recorded.samples.count else { return nil }
                defer { scanned = recorded.samples.count }
                return recorded.samples[scanned...].firstIndex { $0.magnitude >= Self.audible.magnitude }
            }
            if let found { return self.time(ofSample: found) }
            if Clock.now() > deadline { return nil }
            usleep(1_000)
        }
    }

    /// The time just after the last audible sample played after `time` (from ``lead`` before
    /// it), once `quiet` seconds of silence have followed it (waiting up to `timeout`); `time`
    /// itself when nothing was audible. Nil when the sink never fell quiet.
    func silence(after time: Double, quiet: Double = 0.3, timeout: Double = 5) -> Double? {
        let start = sample(at: time - Self.lead)
        let quietSamples = Int(quiet * Double(rate))
        let deadline = Clock.now() + timeout
        while Clock.now() < deadline {
            let last = recording.state.withLock { recorded -> (lastAudible: Int?, count: Int) in
                guard start < recorded.samples.count else { return (nil, recorded.samples.count) }
                let audible = recorded.samples[start...].lastIndex { $0.magnitude >= Self.audible.magnitude }
                return (audible, recorded.samples.count)
            }
            let quietFrom = last.lastAudible.map { $0 + 1 } ?? start
            if last.count - quietFrom >= quietSamples {
                return last.lastAudible == nil ? time : self.time(ofSample: quietFrom)
            }
            usleep(5_000)
        }
        return nil
    }

    /// Waits until the sink has been silent for `quiet` seconds (up to `timeout`); false if it never was.
    @discardableResult
    func waitForQuiet(_ quiet: Double = 0.15, timeout: Double = 10) -> Bool {
        let quietSamples = Int(quiet * Double(rate))
        let deadline = Clock.now() + timeout
        while Clock.now() < deadline {
            let isQuiet = recording.state.withLock { recorded in
                recorded.samples.count >= quietSamples
                    && !recorded.samples.suffix(quietSamples).contains { $0.magnitude >= Self.audible.magnitude }
            }
            if isQuiet { return true }
            usleep(5_000)
        }
        return false
    }

    /// Waits (up to `timeout`) until the latest `window` seconds received are loud (RMS above a
    /// whisper), so that a cancel is sent while a sound is playing, not in a pause between words.
    @discardableResult
    func waitForLoud(window: Double = 0.005, timeout: Double = 1) -> Bool {
        let length = Int(window * Double(rate))
        let deadline = Clock.now() + timeout
        while Clock.now() < deadline {
            let loud = recording.state.withLock { SpeechDetection.rms($0.samples.suffix(length)) > 1_000 }
            if loud { return true }
            usleep(500)
        }
        return false
    }
}
