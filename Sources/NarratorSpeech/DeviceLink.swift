import NarratorSpeechPlan

/// A connected device and the only two threads that call it, for ``ServerOutput``.
///
/// `player` connects the device and then runs the `begin`, `write` and `end` calls handed to it,
/// one at a time; `flusher` runs interrupts, so that a flush reaches the server while a write is
/// blocked in it. When the server stops answering, only these threads wait. Jobs hold the link, so
/// a device is never freed while one of its calls is in flight: the link (and with it the device)
/// goes when the output and the last of its jobs have let go of it (for a given-up device, that is
/// its blocked call returning on its own thread), and its threads then exit.
final class DeviceLink: Sendable {
    let device: any AudioOutput
    private let player: WorkerThread<Void>
    private let flusher = WorkerThread(name: "narrator.audio.flush")

    private init(device: any AudioOutput, player: WorkerThread<Void>) {
        self.device = device
        self.player = player
    }

    deinit {
        player.stop()
        flusher.stop()
    }

    /// Starts a player thread and connects on it; `done` gets the link or the error, on that thread.
    static func open(
        _ connect: @escaping @Sendable () throws(AudioOutputError) -> any AudioOutput,
        then done: @escaping @Sendable (Result<DeviceLink, AudioOutputError>) -> Void
    ) {
        let player = WorkerThread(name: "narrator.audio.device")
        player.submit { _ in
            do throws(AudioOutputError) {
                let device = try connect()
                done(.success(DeviceLink(device: device, player: player)))
            } catch {
                player.stop()
                done(.failure(error))
            }
        }
    }

    /// Runs `call` on the device on the player thread (first waiting for the interrupts posted
    /// before, when `afterInterrupts`); `done` gets its error, or nil when it returned.
    func perform(
        _ call: OutputCall, afterInterrupts: Bool, then done: @escaping @Sendable (AudioOutputError?) -> Void
    ) {
        player.submit { [self] _ in
            if afterInterrupts { flusher.sync { _ in } }
            do throws(AudioOutputError) {
                switch call {
                case .begin(let utterance):
                    try device.begin(utterance.id, kind: utterance.kind, format: AudioFormat(utterance))
                case .write(let samples):
                    try device.write(samples)
                case .end:
                    try device.end()
                }
                done(nil)
            } catch {
                done(error)
            }
        }
    }

    /// Closes the device's stream on the player thread, after the calls handed over before.
    func standBy() {
        player.submit { [self] _ in device.standBy() }
    }

    /// Posts the device's interrupt (a flush, which waits for the server) to the flusher thread.
    func interrupt() {
        flusher.submit { [self] _ in device.interrupt() }
    }
}

extension AudioFormat {
    /// The layout of the utterance's samples.
    init(_ utterance: OutputUtterance) {
        self.init(sampleRate: utterance.sampleRate, channels: utterance.channels)
    }
}
