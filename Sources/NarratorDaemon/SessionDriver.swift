import Dispatch
import NarratorBase
import NarratorCommandLine
import NarratorCore
import NarratorProtocol
import NarratorSpeech
import NarratorSpeechPlan
import NarratorStore
import NarratorSystem

/// The thin daemon around the session: it decodes lines (large ones off the loop), feeds every
/// input to the session, and carries out the effects it returns on the socket loop, the speech
/// player, the log writer and the settings file. It decides nothing itself, and never waits on
/// speech, audio or the disk (stopping waits for the log, at most `logWaitBound`): the player
/// returns at once and reports back through the loop's `post`, like the log writer and the
/// settings file's queue.
final class SessionDriver: ConnectionHandler {
    typealias Message = DaemonMessage

    /// The session, fed through the one driver every shell uses (``EffectDriver``).
    private let driver: EffectDriver<DaemonSession>
    private var session: Session { driver.machine.session }
    private let player: SpeechPlayer
    private let log: LogWriter
    private let settingsFile: SpeechSettingsStore
    private let decoder: RequestDecoder
    private var configuration: ConfigurationReload
    private var logger: Logger
    /// The loop's handle on the session's one timer, for `cancel`: the session owns the timer
    /// (when it is due, whether it is set) and says `setTimer` or `cancelTimer`. The handle is
    /// not cleared when the timer fires, since cancelling a timer that fired does nothing.
    private var timer: TimerID?
    /// Writes the settings file off the loop: a stuck disk holds up no client (the session gives
    /// up on a write after `Session.settingsWriteBound`).
    private let settingsQueue = DispatchQueue(label: "narrator.settings")
    /// Reads the configuration file again after SIGHUP, off the loop.
    private let reloadQueue = DispatchQueue(label: "narrator.reload")
    /// Large lines and large trees' updates prepared off the loop, as the session says.
    private let preparation: RequestPreparation
    /// How long stopping waits for the log's last rows (and then for its thread): a disk that
    /// does not answer must not keep the daemon from stopping.
    static let logWaitBound: Duration = .seconds(5)
    /// The session's clock: the monotonic one, or a test's virtual one (with ``InMemoryLoop``).
    private let clock: () -> MonotonicInstant

    init(
        session: Session, player: SpeechPlayer, log: LogWriter, settingsFile: SpeechSettingsStore, decoder: RequestDecoder,
        configuration: ConfigurationReload, logger: Logger, inbox: LoopInbox<DaemonMessage>,
        clock: @escaping () -> MonotonicInstant = MonotonicClock.now
    ) {
        preparation = RequestPreparation(requests: decoder, documents: session.workspace.decoder, inbox: inbox)
        driver = EffectDriver(DaemonSession(session: session), clock: clock)
        self.clock = clock
        self.player = player
        self.log = log
        self.settingsFile = settingsFile
        self.decoder = decoder
        self.configuration = configuration
        self.logger = logger
    }

    // MARK: Inputs from the loop

    func accept(_ client: ClientID, peer: PeerCredentials, loop: any ConnectionLoop<DaemonMessage>) {
        // The session decides who is served; a refused client gets its reason and is closed.
        let credentials = Credentials(pid: Int(peer.pid), uid: UInt32(peer.uid))
        feed(loop.framing(of: client) == .crlf ? .ssipConnected(client, credentials) : .connected(client, credentials), loop)
    }

    func receive(_ input: ClientInput, from client: ClientID, loop: any ConnectionLoop<DaemonMessage>) {
        if loop.framing(of: client) == .crlf {
            // SSIP: the session parses its commands and keeps track of a SPEAK's data lines.
            switch input {
            case .line(let line):
                feed(.ssipLine(client, line), loop)
                if line.utf8.count >= 256 << 10 { preparation.releaseMemoryWhenQuiet() }
            case .largeLine(let line): feed(.ssipLine(client, String(decoding: line.joined(), as: UTF8.self)), loop)
            case .lineTooLong(let limit): feed(.rejectedLine(client, .tooLong(limit: limit)), loop)
            case .invalidUTF8: feed(.rejectedLine(client, .invalidUTF8), loop)
            }
            return
        }
        // The session decides what waits behind what, and which lines go to be prepared.
        switch input {
        case .largeLine(let line): feed(.largeLine(client, line), loop)
        case .line(let line): feed(.request(client, decoder.decode(line)), loop)
        case .lineTooLong(let limit): feed(.rejectedLine(client, .tooLong(limit: limit)), loop)
        case .invalidUTF8: feed(.rejectedLine(client, .invalidUTF8), loop)
        }
    }

    func disconnected(_ client: ClientID, reason: DisconnectReason, loop: any ConnectionLoop<DaemonMessage>) {
        feed(.disconnected(client), loop)
    }

    func handle(_ message: DaemonMessage, loop: any ConnectionLoop<DaemonMessage>) {
        switch message {
        case .session(let input): feed(input, loop)
        case .configurationRead(let read):
            reloaded(read, loop)
        case .ssipSocket(let report):
            ssipSocket(report, loop)
        case .prepared(let client, let prepared):
            let replaced = preparation.replacedTree(by: prepared, in: session.workspace)
            feed(.prepared(client, prepared), loop)
            preparation.release(replaced)
        }
    }

    func signal(_ signal: LoopSignal, loop: any ConnectionLoop<DaemonMessage>) {
        switch signal {
        case .terminate, .interrupt:
            logger.notice("received \(signal), stopping: finishing replies to \(loop.connectedClients.count) client(s)")
            feed(.shutdown, loop)
        case .hangup:
            logger.notice("received SIGHUP, reloading the configuration")
            reload(loop)
        }
    }

    func batchEnded(loop: any ConnectionLoop<DaemonMessage>) {
        // The session hands out the speech the batch started (less what it also stopped) now.
        feed(.batchEnded, loop)
    }

    func log(_ event: LoopLogEvent) {
        switch event {
        case .disconnected(_, _, .outputOverflow), .acceptFailed, .peerCredentialsUnavailable:
            logger.warning("\(event)")
        default:
            logger.debug("\(event)")
        }
    }

    // MARK: Feeding the session and carrying out its effects

    private func feed(_ input: consuming SessionInput, _ loop: any ConnectionLoop<DaemonMessage>) {
        driver.feed(consume input) { step in
            switch step {
            // Trees the input removed are freed on the preparation worker, not here on the loop.
            case .release(let tree): preparation.release(tree)
            case .effect(let effect): carryOut(effect, loop)
            }
        }
    }

    private func carryOut(_ effect: SessionEffect, _ loop: any ConnectionLoop<DaemonMessage>) {
        switch effect {
        case .send(let client, let message):
            loop.send(message.line, to: client)
        case .sendSSIP(let client, let output):
            loop.write(output.wire, to: client)
        case .close(let client):
            loop.close(client)
        case .play(let request):
            player.play(request)
        case .warmUp(let engine):
            player.warmUp(engine)
        case .engineIdle(let limit):
            player.setEngineIdle(limit)
        case .stopSpeech(let utterance):
            player.stop(utterance)
        case .appendLog(let row, let ticket):
            guard let ticket else {
                log.append(row)
                return
            }
            let inbox = loop.inbox
            log.append(row) { result in
                inbox.post(.session(.logWritten(ticket, result.map { _ in () }.mapError(\.problem))))
            }
        case .updateLog(let row):
            log.update(row)
        case .saveSettings(let settings, let ticket):
            let (file, inbox) = (settingsFile, loop.inbox)
            settingsQueue.async {
                inbox.post(.session(.settingsSaved(ticket, Result { () throws(SpeechSettingsError) in try file.save(settings) })))
            }
        case .prepare(let client, let line):
            preparation.prepare(line, from: client)
        case .prepareUpdate(let client, let update):
            preparation.prepare(update, from: client)
        case .setTimer(let deadline):
            if let timer { loop.cancel(timer) }
            timer = loop.schedule(after: deadline - clock(), deliver: .session(.timerFired))
        case .cancelTimer:
            if let timer { loop.cancel(timer) }
            timer = nil
        case .journal(let level, let line):
            logger.log(level, line)
        case .shutDown:
            // Every final row is queued: once they are committed, the replies that waited for
            // them are posted to the loop ahead of the shutdown queued after them, so each
            // request read so far is answered before the connections close.
            player.stopAll()
            let unwritten = log.flush(within: Self.logWaitBound)
            if unwritten > 0 {
                logger.error(
                    "stopping without the log: \(unwritten) row(s) were still not written after \(Self.logWaitBound.components.seconds) s (its disk does not answer); the replies that waited for them are not sent")
            }
            // Nothing new is read from now on (what was read is answered, as before); the lines
            // still being prepared are answered before the connections close.
            loop.stopReading()
            let inbox = loop.inbox
            preparation.stop { inbox.shutdown() }
        }
    }

    // MARK: The SSIP socket taken by another server

    private func ssipSocket(_ report: SSIPSocketGuard.Report, _ loop: any ConnectionLoop<DaemonMessage>) {
        switch report {
        case .takenBack(let old, let new, let path, let by):
            do {
                try loop.replaceListener(old, with: new)
            } catch {
                logger.error("\(path) was taken by \(by ?? "another server") and bound again, but cannot be served: \(error)")
                return
            }
            let what = by.map { "was taken by \($0)" } ?? "was removed or taken by another program"
            logger.warning(
                "\(path) \(what); narratord took it back: SSIP clients that connect now reach narratord (any already connected to another server stay with it)")
        case .left(let path, let by, let times, let within):
            logger.warning(
                "\(by ?? "another server") keeps taking \(path) (\(times) times within \(within.components.seconds) s); narratord leaves it to it and serves only the SSIP clients already connected")
        case .failed(let path, let error):
            logger.error("\(path) was taken by another server and could not be taken back: \(error)")
        }
    }

    // MARK: SIGHUP

    /// Re-reads the configuration file off the loop (a disk that does not answer holds up no
    /// client); a SIGHUP during a read that has not finished is folded into one more read after it.
    private func reload(_ loop: any ConnectionLoop<DaemonMessage>) {
        guard configuration.hangup() else {
            logger.warning("reload: the previous read of \(configuration.current.configPath) has not finished (its disk does not answer); it is read again once that one ends")
            return
        }
        startRead(loop)
    }

    private func startRead(_ loop: any ConnectionLoop<DaemonMessage>) {
        let (arguments, environment, inbox) = (configuration.arguments, configuration.environment, loop.inbox)
        reloadQueue.async { inbox.post(.configurationRead(ConfigurationReload.read(arguments: arguments, environment: environment))) }
    }

    /// The file as read: the log level and speech settings change now (every client stays
    /// connected); what needs a restart is named in the journal.
    private func reloaded(_ read: Result<DaemonOptions.Action, UsageError>, _ loop: any ConnectionLoop<DaemonMessage>) {
        let (changes, readAgain) = configuration.finished(read)
        defer { if readAgain { startRead(loop) } }
        switch changes {
        case .failure(let error):
            logger.error("reload failed, keeping the current settings: \(error.message)")
        case .success(let changes):
            logger = Logger(level: changes.logLevel)
            for (key, value) in changes.settings { feed(.changeSetting(key: key, value: value), loop) }
            if !changes.needRestart.isEmpty {
                logger.warning("reload: \(changes.needRestart.joined(separator: ", ")) take effect after a restart")
            }
            logger.notice("reloaded \(changes.path) (log level \(changes.logLevel.rawValue))")
        }
    }
}
