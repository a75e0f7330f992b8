import Glibc
import NarratorBase
import NarratorCommandLine
import NarratorCore
import NarratorEngines
import NarratorModel
import NarratorProtocol
import NarratorSpeech
import NarratorSpeechPlan
import NarratorStore
import NarratorSystem

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
            StandardError.write("narratord: \(error.message) (see narratord --help)\n")
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
        if let bytes = contents(of: path) {
            entries = try ConfigFile.parse(String(decoding: bytes, as: UTF8.self), file: path)
        } else if explicit {
            throw UsageError("--config: cannot read \(path)")
        }
        return try DaemonOptions.parse(arguments, environment: environment, config: entries, configFile: path)
    }

    /// A file's bytes, or nil when it cannot be opened. It reads a character device too, so
    /// `--config /dev/null` is an empty configuration.
    static func contents(of path: String) -> [UInt8]? {
        do { return try Syscall.readFile(path) } catch where error.syscall == "open" { return nil } catch { return [] }
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

        // The listening sockets: passed by systemd, or bound here.
        var owned: ListeningSocket?
        var ownedSSIP: ListeningSocket?
        var listeners: [Int32]
        var ssipListeners: [Int32] = []
        var socketPath: String?
        var ssipPath: String?
        let activation = try SocketActivation.takeFromProcess()
        let ssipWanted = try SSIPSocket.path(options.ssip, environment: environment)
        if let activation {
            // The SSIP socket unit names its socket "ssip"; every other one speaks JSON.
            ssipListeners = activation.listeningUnixStreamSockets(named: SSIPSocket.descriptorName)
            listeners = activation.listeningUnixStreamSockets.filter { !ssipListeners.contains($0) }
            guard !listeners.isEmpty || !ssipListeners.isEmpty else { throw StartError(description: "systemd passed no listening Unix stream socket") }
            logger.info("using \(listeners.count + ssipListeners.count) socket(s) passed by systemd (\(ssipListeners.count) for SSIP)")
        } else {
            let path = SocketPath.resolve(flag: options.socket, environment: environment, uid: uid)
            let bound: ListeningSocket
            do {
                bound = try path.bindListener(uid: uid)
            } catch .alreadyRunning(let where_) {
                throw StartError(description: "another narratord is already listening on \(where_); stop it first, or start this one with --socket PATH")
            } catch {
                throw StartError(description: "cannot listen on \(path.path): \(error)")
            }
            owned = bound
            listeners = [bound.fd]
            socketPath = bound.path
            if bound.replacedStaleSocket { logger.notice("replaced a stale socket left by a daemon that is gone") }
        }
        if ssipListeners.isEmpty, let path = ssipWanted {
            let bound: ListeningSocket
            do {
                bound = try path.bindListener(uid: uid)
            } catch .alreadyRunning(let where_) {
                abandon(owned)
                throw StartError(
                    description: "a speech server (speech-dispatcher or another narratord) is already listening on \(where_); stop it first (systemctl --user stop speech-dispatcher.socket speech-dispatcher.service), or give --ssip another PATH")
            } catch {
                abandon(owned)
                throw StartError(description: "cannot listen for SSIP on \(path.path): \(error)")
            }
            ownedSSIP = bound
            ssipListeners = [bound.fd]
            ssipPath = bound.path
            if bound.replacedStaleSocket { logger.notice("replaced a stale SSIP socket left by a speech server that is gone") }
        }
        do {
            let configuration = loopConfiguration(options)
            let framings = Dictionary(uniqueKeysWithValues: ssipListeners.map { ($0, Framing.crlf) })
            var loop = LoopStart(listeners: listeners + ssipListeners, framings: framings, configuration: configuration)
            if ownedSSIP != nil { loop.ssipBound = ssipWanted }
            return try serve(options, loop: loop, socketPath: socketPath, owned: owned, ssip: (ssipPath, ownedSSIP, !ssipListeners.isEmpty), audio: audio,
                             arguments: arguments, environment: environment, notifier: notifier, logger: logger)
        } catch {
            // Failing to start must not leave a socket behind that looks like a dead daemon's.
            if let owned { _ = owned.removeSocketFile() }
            if let ownedSSIP { _ = ownedSSIP.removeSocketFile() }
            throw error
        }
    }

    /// Closes a listener bound before start-up failed and removes its socket file, which (closed)
    /// no longer answers, so nothing is left behind that looks like a dead daemon's.
    private static func abandon(_ listener: ListeningSocket?) {
        guard let listener else { return }
        try? Syscall.close(listener.fd)
        _ = listener.removeSocketFile()
    }

    /// What the poll loop is started with once the rest of the daemon is up.
    struct LoopStart {
        var listeners: [Int32]
        var framings: [Int32: Framing]
        var configuration: PollLoopConfiguration
        /// Where the SSIP listener narratord bound itself is (not one systemd passed): watched,
        /// and taken back when another server takes it (``SSIPSocketGuard``).
        var ssipBound: SocketPath?
    }

    /// Starts speech, the log and the session, then runs the loop on this thread until it stops.
    /// The loop takes the listening sockets when it starts; until then they are closed here if
    /// start-up fails.
    static func serve(
        _ options: DaemonOptions, loop start: LoopStart, socketPath: String?, owned: ListeningSocket?,
        ssip: (path: String?, owned: ListeningSocket?, serving: Bool), audio: AudioSpec,
        arguments: [String], environment: [String: String], notifier: SystemdNotifier, logger: Logger
    ) throws -> Int32 {
        let inbox: LoopInbox<DaemonMessage>
        let driver: SessionDriver
        let log: LogWriter
        do {
            do { inbox = try LoopInbox() } catch { throw StartError(description: "cannot start the event loop: \(error)") }
            (driver, log) = try startSession(
                options, inbox: inbox, socketPath: socketPath, ssip: ssip, audio: audio, arguments: arguments, environment: environment, logger: logger)
        } catch {
            for fd in start.listeners { try? Syscall.close(fd) }
            throw error
        }
        // Start-up leaves freed memory behind in every thread's heap (eSpeak NG's voice files read
        // while listing the voices, the lists built from them, SQLite's schema checks): given back
        // once, before the first client, it is resident no more (docs/performance.md).
        Syscall.releaseFreedMemory()
        let pidFile = holdSpeechDispatcherPIDFile(ssip: ssip.path ?? start.framings.keys.sorted().first.flatMap { try? Syscall.unixSocketPath($0) }, environment: environment, logger: logger)
        defer { pidFile?.release() }
        var ssipGuard: SSIPSocketGuard?
        if let owned = ssip.owned, let bound = start.ssipBound {
            do {
                ssipGuard = try SSIPSocketGuard.start(owned, bound: bound, uid: getuid()) { _ = inbox.post(.ssipSocket($0)) }
            } catch {
                logger.warning("cannot watch \(owned.path) for another server taking it (\(error)); it is not taken back if one does")
            }
        }
        try? notifier.ready(status: "Listening on \(socketPath ?? "systemd's socket")")
        do {
            try PollLoop.run(listeners: start.listeners, framings: start.framings, configuration: start.configuration, inbox: inbox, handler: driver)
        } catch {
            throw StartError(description: "event loop failed: \(error)")
        }
        try? notifier.stopping()
        if let owned { _ = owned.removeSocketFile() }
        if let owned = ssipGuard?.stop() ?? ssip.owned { _ = owned.removeSocketFile() }
        if !log.close(within: SessionDriver.logWaitBound) {
            logger.error("the log's writer did not finish within \(SessionDriver.logWaitBound.components.seconds) s; stopping without it")
        }
        logger.notice("stopped")
        return 0
    }

    /// Holds speech-dispatcher's pid file while narratord serves SSIP where its clients look
    /// (``SpeechDispatcherPIDFile``); says once why when it cannot.
    private static func holdSpeechDispatcherPIDFile(ssip path: String?, environment: [String: String], logger: Logger) -> SpeechDispatcherPIDFile? {
        guard let path, let standard = SocketPath.speechDispatcher(environment: environment), standard.path == path else { return nil }
        do {
            return try SpeechDispatcherPIDFile.hold(SpeechDispatcherPIDFile.path(forSocket: standard), pid: getpid())
        } catch {
            logger.warning(error.description)
            return nil
        }
    }

    /// The event loop's limits for `options`: the longest line, the output a client may leave unread.
    static func loopConfiguration(_ options: DaemonOptions) -> PollLoopConfiguration {
        PollLoopConfiguration(
            maximumLineLength: options.maxMessageBytes, outputBufferLimit: max(4 << 20, options.maxMessageBytes * 2),
            // Large lines are decoded off the loop, which gives their memory back there.
            signals: [.terminate, .interrupt, .hangup], releaseMemoryAfterLineLength: .max, largeLineLength: RequestPreparation.threshold)
    }

    /// Speech, the settings, the log and the session, with what the speech player and the log
    /// writer report posted to `loop`; says on the journal how the daemon starts. `clock` is the
    /// session's (a test's virtual one, with ``InMemoryLoop``).
    static func startSession(
        _ options: DaemonOptions, inbox loop: LoopInbox<DaemonMessage>, socketPath: String?,
        ssip: (path: String?, owned: ListeningSocket?, serving: Bool), audio: AudioSpec,
        arguments: [String], environment: [String: String], logger: Logger, clock: @escaping () -> MonotonicInstant = MonotonicClock.now
    ) throws -> (SessionDriver, LogWriter) {
        let startedAt = clock()
        // Speech: the engine and the audio output; what they report is posted to the loop.
        do {
            try Syscall.makeDirectories(options.stateDirectory, mode: 0o700)
        } catch {
            // Not fatal: speech does not need it, and the log opens by itself once it can.
            logger.warning(
                "cannot create the state directory \(options.stateDirectory) (\(error.message)): settings are not saved and the log stays closed until it can be written")
        }
        // The engine processes list their voices while eSpeak NG starts.
        let engineExecutables: [String]
        do {
            engineExecutables = try EngineDiscovery.executables(options.engines, ownExecutable: try? Syscall.readLink("/proc/self/exe"))
        } catch {
            throw StartError(description: error.description)
        }
        let listings = EngineDiscovery.startListing(engineExecutables)
        let espeak: EspeakEngine
        do {
            espeak = try EspeakEngine(dataPath: options.espeakData)
        } catch {
            _ = listings()
            throw StartError(description: "cannot start speech: \(SpeechStartError.engine(error))")
        }
        let (found, engineWarnings) = EngineDiscovery.accepted(listings())
        for warning in engineWarnings { logger.warning(warning) }
        var others: [EngineProcess] = []
        for (executable, listing) in found {
            let name = EngineName(listing.engine)
            do {
                others.append(try EngineProcess(
                    executable: executable, listing: listing, hangBound: EngineDiscovery.hangBound(of: executable),
                    environment: environment,
                    onHealth: { loop.post(.session(.engineChanged(name, $0))) },
                    onLog: { [logger] line in logger.info("engine \(name): \(line)") }))
            } catch {
                logger.warning("engine \(executable) left out, speech goes on without it: \(error)")
            }
        }
        let player: SpeechPlayer
        do {
            player = try SpeechPlayer.start(audio: audio, engine: espeak, others: others) { loop.post(.session($0.sessionInput)) }
        } catch {
            throw StartError(description: "cannot start speech: \(error)")
        }
        let settingsFile = SpeechSettingsStore(path: options.stateDirectory + "/settings.json")
        let settings = try startingSettings(
            options, file: settingsFile, catalog: VoiceCatalog(voices: player.engine.voices, variants: player.engine.variants),
            engines: SpeechEngines(espeakVoices: player.engine.voices, others: others.map { EngineVoices(name: $0.engineName, voices: $0.voices) }))

        let logPath = options.database ?? options.stateDirectory + "/narrator.db"
        let log = LogWriter.starting(path: logPath) { loop.post(.session(.logHealth($0))) }
        // Said once here; the session says it if a file is set aside later (Session.setAsideMessage).
        if let aside = log.status.setAside { logger.warning(Session.setAsideMessage(aside, log: logPath)) }
        if let problem = log.status.lastError {
            logger.warning("the utterance log is unavailable, speech goes on and the log is opened again when it can be: \(problem)")
        }
        var treePolicies: [String: AnnouncementPolicy] = [:]
        for (tree, choice) in options.treePolicies { treePolicies[tree] = try announcementPolicy(choice) }
        // Wall-clock time minus monotonic time, both read now: the log's times are monotonic
        // instants shifted by it (reading the monotonic clock at start-up instead made every
        // logged time late by however long eSpeak and the log took to open).
        let clocksNow = MonotonicClock.now()
        let wallClockOffset = WallClock.secondsSinceEpoch() - Double(clocksNow.nanoseconds) / 1e9
        var configuration = SessionConfiguration(
            uid: UInt32(getuid()), pid: Int(getpid()), socket: socketPath, startedAt: startedAt,
            wallClockOffset: wallClockOffset, limits: options.limits,
            voices: player.engine.voices, standardVoice: (try? player.engine.resolve(.standard)) ?? "en",
            policy: try announcementPolicy(options.policy), treePolicies: treePolicies)
        configuration.variants = player.engine.variants
        configuration.otherEngines = others.map { EngineVoices(name: $0.engineName, voices: $0.voices) }
        configuration.limits.ssipMessageBytes = options.maxMessageBytes
        configuration.updatesPreparedFrom = PreparedUpdate.threshold
        let session = Session(configuration: configuration, settings: settings, output: player.output.status, log: log.health)
        let driver = SessionDriver(
            session: session, player: player, log: log, settingsFile: settingsFile, decoder: RequestDecoder(parser: options.limits.document.parser),
            configuration: ConfigurationReload(arguments: arguments, environment: environment, current: options), logger: logger, inbox: loop,
            clock: clock)

        // Engine processes stop once unused for the setting's time; then engines the saved
        // settings choose start now, not at their first utterance.
        player.setEngineIdle(settings.engineIdle)
        for engine in settings.chosenEngines(among: configuration.engines) { player.warmUp(engine) }
        let output = player.output.status
        // The output's state is said once here, then once per change (the session journals each).
        // An explicit --audio pulse that found no sound server is a warning; auto falling back to null is not.
        let ssipLine = ssip.serving ? "; SSIP on \(ssip.path ?? "systemd's socket")" : ""
        let startLine =
            "narratord \(NarratorVersion.daemon) listening on \(socketPath ?? "systemd's socket")\(ssipLine); audio: \(output.active)\(output.fallback ? " (fallback: \(output.detail ?? "sound server unreachable"))" : ""); voice: \(settings.voice ?? configuration.standardVoice)"
        if output.fallback && audio == .pulse { logger.warning(startLine) } else { logger.notice(startLine) }
        return (driver, log)
    }

    /// The saved speech settings with `--voice`, `--rate` and `--engine-idle` applied (and saved, as `set` would).
    static func startingSettings(_ options: DaemonOptions, file: SpeechSettingsStore, catalog: VoiceCatalog, engines: SpeechEngines? = nil) throws -> SpeechSettings {
        var settings: SpeechSettings
        do { settings = try file.load() } catch { throw StartError(description: "cannot start speech: \(error)") }
        let changes = [("voice", options.voice), ("rate", options.rate.map(String.init)), ("engine-idle", options.engineIdle.map(String.init))]
            .compactMap { key, value in value.map { (key, $0) } }
        guard !changes.isEmpty else { return settings }
        for (key, value) in changes {
            do {
                try settings.set(key, to: value, installed: catalog, engines: engines)
            } catch {
                throw StartError(description: "--\(key): \(error)")
            }
        }
        do { try file.save(settings) } catch { throw StartError(description: "cannot start speech: \(error)") }
        return settings
    }

    /// `--policy`: a built-in name or a policy file.
    static func announcementPolicy(_ choice: String?) throws -> AnnouncementPolicy {
        guard let choice else { return .default }
        if let builtIn = AnnouncementPolicy.named(choice) { return builtIn }
        guard let bytes = try? Syscall.readFile(choice) else {
            throw StartError(description: "--policy \(choice): not a built-in policy (none, default, strict) nor a readable file")
        }
        do {
            let json = try JSONParser().parse(bytes)
            return try AnnouncementPolicy.parse(json, name: Syscall.fileStem(of: choice))
        } catch {
            throw StartError(description: "--policy \(choice): \(error)")
        }
    }
}
