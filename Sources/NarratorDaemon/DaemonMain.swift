import Foundation
import NarratorCommandLine
import NarratorCore
import NarratorSpeech
import NarratorSystem
import Synchronization

/// `narratord` as a function of its arguments and environment; `main.swift` only calls this.
///
/// Exit status: 0 after a clean stop, 1 when it cannot start (socket in use, speech engine
/// unavailable), 2 for a usage error.
public enum DaemonMain {
    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        // A parent may hand down a mask that blocks the stop signals (test runners and some
        // supervisors do). Unblock them before any thread starts, so every thread inherits it
        // and SIGTERM always reaches the event loop.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&stopSignals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
        let options: DaemonOptions
        switch Result(catching: { () throws(UsageError) in try readOptions(arguments, environment: environment) }) {
        case .failure(let error):
            FileHandle.standardError.write(Data("narratord: \(error.message) (see narratord --help)\n".utf8))
            return 2
        case .success(.help):
            print(DaemonOptions.usage)
            return 0
        case .success(.version):
            print("narratord \(NarratorVersion.daemon) (protocol \(NarratorVersion.protocolVersion), tree format \(NarratorVersion.treeFormat))")
            return 0
        case .success(.run(let parsed)):
            options = parsed
        }
        let logger = Logger(level: options.logLevel)
        do {
            return try serve(options, arguments: arguments, environment: environment, logger: logger)
        } catch {
            logger.error("narratord: \(error)")
            return 1
        }
    }

    /// Reads the configuration file (when there is one) and the command line over it.
    static func readOptions(_ arguments: [String], environment: [String: String]) throws(UsageError) -> DaemonOptions.Action {
        let (path, explicit) = DaemonOptions.configPath(arguments, environment: environment)
        var entries: [ConfigFile.Entry] = []
        if let data = FileManager.default.contents(atPath: path) {
            entries = try ConfigFile.parse(String(decoding: data, as: UTF8.self), file: path)
        } else if explicit {
            throw UsageError("--config: cannot read \(path)")
        }
        return try DaemonOptions.parse(arguments, environment: environment, config: entries, configFile: path)
    }

    /// A failure to start, with what to do about it.
    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    static func serve(_ options: DaemonOptions, arguments: [String], environment: [String: String], logger: Logger) throws -> Int32 {
        let audio: AudioSpec
        do { audio = try AudioSpec.parse(options.audio) } catch { throw StartError(description: "--audio: \(error)") }
        let uid = getuid()
        let notifier = SystemdNotifier(environment: environment)

        // The listening socket: passed by systemd, or bound here.
        var owned: ListeningSocket?
        var listeners: [Int32]
        var socketPath: String?
        if let activation = try SocketActivation.takeFromProcess() {
            listeners = activation.listeningUnixStreamSockets
            guard !listeners.isEmpty else { throw StartError(description: "systemd passed no listening Unix stream socket") }
            logger.info("using \(listeners.count) socket(s) passed by systemd")
        } else {
            let path = SocketPath.resolve(flag: options.socket, environment: environment, uid: uid)
            do {
                owned = try path.bindListener(uid: uid)
            } catch .alreadyRunning(let where_) {
                throw StartError(description: "another narratord is already listening on \(where_); stop it first, or start this one with --socket PATH")
            } catch {
                throw StartError(description: "cannot listen on \(path.path): \(error)")
            }
            listeners = [owned!.fd]
            socketPath = owned!.path
            if owned!.replacedStaleSocket { logger.notice("replaced a stale socket left by a daemon that is gone") }
        }
        do {
            // The loop owns the listening sockets from here on and closes them if start-up fails.
            let configuration = EventLoopConfiguration(
                maximumLineLength: options.maxMessageBytes, outputBufferLimit: max(4 << 20, options.maxMessageBytes * 2),
                signals: [.terminate, .interrupt, .hangup])
            let loop: EventLoop
            do { loop = try EventLoop(listeners: listeners, configuration: configuration) } catch {
                throw StartError(description: "cannot start the event loop: \(error)")
            }
            return try serve(options, loop: loop, socketPath: socketPath, owned: owned, audio: audio,
                             arguments: arguments, environment: environment, notifier: notifier, logger: logger)
        } catch {
            // Failing to start must not leave a socket behind that looks like a dead daemon's.
            if let owned { _ = owned.removeSocketFile() }
            throw error
        }
    }

    static func serve(
        _ options: DaemonOptions, loop: EventLoop, socketPath: String?, owned: ListeningSocket?, audio: AudioSpec,
        arguments: [String], environment: [String: String], notifier: SystemdNotifier, logger: Logger
    ) throws -> Int32 {
        let uid = getuid()
        // Speech: the engine and the audio output.
        try? FileManager.default.createDirectory(atPath: options.stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let sink = SpeechEventSink()
        let speech: SpeechService
        do {
            speech = try SpeechService.start(
                audio: audio, settingsPath: options.stateDirectory + "/settings.json", espeakDataPath: options.espeakData,
                log: { logger.notice($0) }, onEvent: { sink.deliver($0) })
        } catch {
            throw StartError(description: "cannot start speech: \(error)")
        }
        if let voice = options.voice {
            do { try speech.set("voice", to: voice) } catch { throw StartError(description: "--voice: \(error)") }
        }
        if let rate = options.rate {
            do { try speech.set("rate", to: String(rate)) } catch { throw StartError(description: "--rate: \(error)") }
        }

        let policy = try announcementPolicy(options.policy)
        let logPath = options.database ?? options.stateDirectory + "/narrator.db"
        let desk = AnnouncementDesk(policy: policy, logPath: logPath)
        for (tree, choice) in options.treePolicies.sorted(by: { $0.key < $1.key }) {
            desk.setPolicy(try announcementPolicy(choice), forTree: tree)
        }
        if let problem = desk.log.status.lastError {
            logger.warning("the utterance log is unavailable, speech goes on and the log is opened again when it can be: \(problem)")
        }
        let daemon = Daemon(
            logger: logger, speech: speech, desk: desk, uid: uid, socketPath: socketPath, limits: options.limits)
        sink.connect(LoopBound(daemon, loop: loop))
        var current = options
        daemon.reload = { [unowned daemon] in
            // SIGHUP: re-read the file; apply what can change while running, keep every client.
            try? notifier.notify([.reloading])
            defer { try? notifier.ready(status: "Listening on \(socketPath ?? "systemd's socket")") }
            let next: DaemonOptions
            switch Result(catching: { () throws(UsageError) in try readOptions(arguments, environment: environment) }) {
            case .success(.run(let parsed)):
                next = parsed
            case .success:
                return
            case .failure(let error):
                daemon.logger.error("reload failed, keeping the current settings: \(error.message)")
                return
            }
            daemon.logger = Logger(level: next.logLevel)
            if next.voice != current.voice, let voice = next.voice {
                do { try speech.set("voice", to: voice) } catch { daemon.logger.error("reload: voice: \(error)") }
            }
            if next.rate != current.rate, let rate = next.rate {
                do { try speech.set("rate", to: String(rate)) } catch { daemon.logger.error("reload: rate: \(error)") }
            }
            var restart: [String] = []
            if next.socket != current.socket { restart.append("socket") }
            if next.audio != current.audio { restart.append("audio") }
            if next.stateDirectory != current.stateDirectory { restart.append("state-dir") }
            if next.espeakData != current.espeakData { restart.append("espeak-data") }
            if next.maxMessageBytes != current.maxMessageBytes { restart.append("max-message") }
            if next.limits != current.limits { restart.append("limits") }
            if next.database != current.database { restart.append("db") }
            if next.policy != current.policy || next.treePolicies != current.treePolicies { restart.append("policy") }
            if !restart.isEmpty { daemon.logger.warning("reload: \(restart.joined(separator: ", ")) take effect after a restart") }
            daemon.logger.notice("reloaded \(next.configPath) (log level \(next.logLevel.rawValue))")
            current = next
        }

        let status = speech.status
        logger.notice(
            "narratord \(NarratorVersion.daemon) listening on \(socketPath ?? "systemd's socket"); audio: \(status.output.active)\(status.output.fallback ? " (fallback: \(status.output.detail ?? "sound server unreachable"))" : ""); voice: \(status.voice)")
        try? notifier.ready(status: "Listening on \(socketPath ?? "systemd's socket")")
        do { try loop.run(daemon) } catch { throw StartError(description: "event loop failed: \(error)") }
        try? notifier.stopping()
        if let owned { _ = owned.removeSocketFile() }
        desk.log.close()
        logger.notice("stopped")
        return 0
    }

    /// `--policy`: a built-in name or a policy file.
    static func announcementPolicy(_ choice: String?) throws -> AnnouncementPolicy {
        guard let choice else { return .default }
        if let builtIn = AnnouncementPolicy.named(choice) { return builtIn }
        guard let data = FileManager.default.contents(atPath: choice) else {
            throw StartError(description: "--policy \(choice): not a built-in policy (none, default, strict) nor a readable file")
        }
        do {
            let json = try JSONParser().parse([UInt8](data))
            return try AnnouncementPolicy.parse(json, name: ((choice as NSString).lastPathComponent as NSString).deletingPathExtension)
        } catch {
            throw StartError(description: "--policy \(choice): \(error)")
        }
    }
}

/// Forwards speech events from the speech queue to the daemon on its loop thread.
final class SpeechEventSink: Sendable {
    private let target = Mutex<LoopBound<Daemon>?>(nil)

    func connect(_ daemon: LoopBound<Daemon>) { target.withLock { $0 = daemon } }

    func deliver(_ event: SpeechEvent) {
        guard let bound = target.withLock({ $0 }) else { return }
        _ = bound.loop.execute { loop in bound.open().speechEvent(event, loop: loop) }
    }
}
