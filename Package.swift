// swift-tools-version: 6.0
// Narrator: a speech-narrating accessibility engine for Linux.
//
// Layering (each arrow is "depends on"; docs/architecture.md draws it, and
// Tests/Helpers/check_layers.py, run by `make test`, fails on an import outside a module's set):
//   The pure layers, bottom up, each importing only those below: NarratorBase, NarratorModel,
//   NarratorEngines, NarratorSpeechPlan, then NarratorSSIP and NarratorProtocol, then
//   NarratorExperiments (above SSIP), NarratorBridge (above the protocol) and NarratorCore (the
//   daemon's session, above both). No I/O in any of them.
//   narratord -> NarratorDaemon -> NarratorCore, NarratorSpeech, NarratorStore      the daemon
//   narratorctl -> NarratorCLI -> NarratorProtocol, NarratorExperiments, NarratorSpeech, NarratorStore
//   narrator-atspi -> NarratorATSPI -> NarratorBridge        reads desktop applications through AT-SPI2 (libatspi)
//   NarratorKeyboard (the keymap and what each key means) -> NarratorBase; NarratorBridge and NarratorCLI use it
//   narrator-flite -> NarratorEngines, NarratorSystem, CFlite      the Flite engine process (docs/engine-protocol.md)
//   Every shell -> NarratorSystem (the syscalls) -> NarratorBase: it knows no domain type.
//   NarratorDaemon, NarratorCLI, NarratorATSPI -> NarratorCommandLine (the one option parser) -> NarratorBase
//   System libraries (eSpeak NG, Flite, pcaudiolib, ALSA, SQLite, Linux calls) are reached only through the C shim targets.
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Narrator",
    products: [
        .executable(name: "narratord", targets: ["narratord"]),
        .executable(name: "narratorctl", targets: ["narratorctl"]),
        .executable(name: "narrator-atspi", targets: ["narrator-atspi"]),
    ],
    targets: [
        // libespeak-ng through a module map and a shim header.
        .systemLibrary(
            name: "CEspeak",
            pkgConfig: "espeak-ng",
            providers: [.apt(["libespeak-ng-dev"])]
        ),
        // Flite 2.2 and its five built-in US English voices, for the narrator-flite engine process.
        .systemLibrary(
            name: "CFlite",
            providers: [.apt(["flite1-dev"])]
        ),
        // SQLite through a module map and a shim header.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // pcaudiolib, eSpeak NG's own audio layer (PulseAudio, PipeWire, ALSA).
        .systemLibrary(
            name: "CPCAudio",
            providers: [.apt(["libpcaudio-dev"])]
        ),
        // ALSA, only to silence the error messages it prints when pcaudiolib falls back to it.
        .systemLibrary(
            name: "CALSA",
            pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]
        ),
        // libatspi, AT-SPI2's client library: how desktop applications' accessibility trees are read.
        .systemLibrary(
            name: "CAtspi",
            pkgConfig: "atspi-2",
            providers: [.apt(["libatspi2.0-dev"])]
        ),
        // Xlib's keyboard extension: narrator-atspi puts Caps Lock's state back after using it as Narrator's key.
        .systemLibrary(
            name: "CX11",
            pkgConfig: "x11",
            providers: [.apt(["libx11-dev"])]
        ),
        // What every layer shares and nothing else: instants on the monotonic clock, client ids, "did you mean". No imports.
        .target(name: "NarratorBase", swiftSettings: strict),
        // The model: JSON, tree documents, the compiled tree and its reading order, utterances and
        // their phrases, navigation (the workspace and its focus), the audit, errors. Pure, no I/O.
        .target(name: "NarratorModel", dependencies: ["NarratorBase"], swiftSettings: strict, linkerSettings: [.linkedLibrary("m")]),
        // The engine protocol (frames, requests, listings), the supervisor of engine processes, and
        // the voices and prosody they speak with. All narrator-flite links of the domain. Pure.
        .target(name: "NarratorEngines", dependencies: ["NarratorBase", "NarratorModel"], swiftSettings: strict),
        // What is said when: the announcement queue and policies, the speech scheduler and plan,
        // the speech settings, the sound output's failover, and the log's rows. Knows no protocol. Pure.
        .target(name: "NarratorSpeechPlan", dependencies: ["NarratorBase", "NarratorModel", "NarratorEngines"], swiftSettings: strict),
        // Speech Dispatcher's protocol: lines, commands, settings, replies, events, the gate. Pure.
        .target(name: "NarratorSSIP", dependencies: ["NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan"], swiftSettings: strict),
        // narratord's JSON wire protocol: requests, replies, events, their codecs. Pure.
        .target(name: "NarratorProtocol", dependencies: ["NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan"], swiftSettings: strict),
        // The daemon's session: everything narratord decides, as one pure state machine over the layers below.
        .target(
            name: "NarratorCore",
            dependencies: ["NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan", "NarratorSSIP", "NarratorProtocol"],
            swiftSettings: strict, linkerSettings: [.linkedLibrary("m")]),
        // Traces, replays and policy sweeps: the speech plan and the SSIP gate on a virtual clock, as narratorctl runs them. Pure.
        .target(
            name: "NarratorExperiments", dependencies: ["NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan", "NarratorSSIP"],
            swiftSettings: strict),
        // The AT-SPI bridge's core: D-Bus wire and handshake, the mirror of applications, routing, the
        // bridge's state machine. Pure; narrator-atspi runs it, narratord never links it.
        // Narrator's keys: the keymap, its file, and what each key event means (taken or not, which command). Pure.
        .target(name: "NarratorKeyboard", dependencies: ["NarratorBase"], swiftSettings: strict),
        .target(name: "NarratorDBus", swiftSettings: strict),
        .target(name: "NarratorBridge", dependencies: ["NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan", "NarratorProtocol", "NarratorKeyboard", "NarratorDBus"], swiftSettings: strict),
        // Speech: the eSpeak NG engine on its own thread, audio outputs, the speech runtime.
        .target(name: "NarratorSpeech", dependencies: ["NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan", "NarratorSystem", "CEspeak", "CPCAudio", "CALSA"], swiftSettings: strict),
        // The SQLite utterance log: a thin typed wrapper, migrations, and a group-committing writer thread.
        .target(name: "NarratorStore", dependencies: ["NarratorBase", "NarratorModel", "NarratorSpeechPlan", "NarratorSystem", "CSQLite"], swiftSettings: strict),
        // Linux-only calls (accept4, eventfd, SO_PEERCRED) that Glibc hides without _GNU_SOURCE.
        .systemLibrary(name: "CNarratorSystem"),
        // Thin, typed wrappers around the system calls the daemon and CLI need (sockets, poll, signals).
        .target(name: "NarratorSystem", dependencies: ["NarratorBase", "CNarratorSystem"], swiftSettings: strict),
        // The option parser narratorctl and narratord share: option specs, parsing, usage errors, help columns. Pure.
        .target(name: "NarratorCommandLine", dependencies: ["NarratorBase"], swiftSettings: strict),
        // The command-line front end as a library, so that parsing is testable.
        .target(
            name: "NarratorCLI",
            dependencies: ["NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan", "NarratorProtocol", "NarratorExperiments", "NarratorCommandLine", "NarratorSystem", "NarratorStore", "NarratorSpeech", "NarratorKeyboard"],
            swiftSettings: strict
        ),
        // The daemon as a library: options, the request handler, start-up and shutdown.
        .target(
            name: "NarratorDaemon",
            dependencies: ["NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan", "NarratorSSIP", "NarratorProtocol", "NarratorCore", "NarratorCommandLine", "NarratorSystem", "NarratorSpeech", "NarratorStore"],
            swiftSettings: strict
        ),
        // Reading desktop applications through AT-SPI2 into the core's snapshots (the AT-SPI bridge's shell).
        .target(name: "NarratorATSPI", dependencies: ["NarratorBase", "NarratorModel", "NarratorProtocol", "NarratorBridge", "NarratorDBus", "NarratorKeyboard", "NarratorCommandLine", "NarratorSystem", "CAtspi", "CX11"], swiftSettings: strict),
        // A private PulseAudio server with a null sink (and speech detection in its recordings), for the audio tests and the benchmarks.
        .target(name: "NarratorPulseHarness", dependencies: ["NarratorBase", "NarratorSystem"], swiftSettings: strict),
        // A headless desktop (Xvfb, a private session bus, the AT-SPI bus and registry) for the AT-SPI tests,
        // and the blocking calls on the bridge's bus connection that only tests and benchmarks make.
        .target(name: "NarratorDesktopHarness", dependencies: ["NarratorBase", "NarratorSystem", "NarratorBridge", "NarratorDBus", "NarratorATSPI"], swiftSettings: strict),
        // What the test targets share: finding the built binaries and running them to completion.
        .target(name: "NarratorTestSupport", swiftSettings: strict),
        .executableTarget(name: "narratord", dependencies: ["NarratorDaemon", "NarratorSystem"], swiftSettings: strict),
        .executableTarget(name: "narratorctl", dependencies: ["NarratorCLI"], swiftSettings: strict),
        .executableTarget(name: "narrator-atspi", dependencies: ["NarratorATSPI"], swiftSettings: strict),
        // The Flite engine as a child process of narratord, speaking the engine protocol on its stdin and stdout.
        .executableTarget(name: "narrator-flite", dependencies: ["NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSystem", "CFlite"], swiftSettings: strict),
        .executableTarget(
            name: "narrator-bench",
            dependencies: [
                "NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan", "NarratorSSIP", "NarratorExperiments", "NarratorBridge", "NarratorDBus", "NarratorCore",
                "NarratorSpeech", "NarratorSystem", "NarratorPulseHarness", "NarratorStore", "NarratorATSPI", "NarratorDesktopHarness", "CAtspi",
                // The experiment sweep's parallel runner, measured as narratorctl runs it.
                "NarratorCLI",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NarratorCoreTests",
            dependencies: ["NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan", "NarratorSSIP", "NarratorProtocol", "NarratorExperiments", "NarratorBridge", "NarratorCore"],
            swiftSettings: strict
        ),
        // The AT-SPI bridge's core in-process, on a virtual clock and a virtual desktop: reads,
        // the mirror, and every scenario of the bridge with its exact effects.
        .testTarget(name: "NarratorBridgeTests", dependencies: ["NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan", "NarratorProtocol", "NarratorBridge", "NarratorDBus", "NarratorKeyboard"], swiftSettings: strict),
        .testTarget(name: "NarratorKeyboardTests", dependencies: ["NarratorBase", "NarratorKeyboard"], swiftSettings: strict),
        // The daemon's session in-process, on a virtual clock: every scenario with its exact effects.
        .testTarget(
            name: "NarratorSessionTests",
            dependencies: ["NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan", "NarratorSSIP", "NarratorProtocol", "NarratorCore", "NarratorTestSupport"],
            swiftSettings: strict
        ),
        // Parser unit tests, and end-to-end tests that run the built binaries.
        .testTarget(
            name: "NarratorCLITests",
            dependencies: [
                "NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan", "NarratorProtocol", "NarratorCLI", "NarratorCommandLine", "NarratorStore", "NarratorTestSupport", "narratorctl", "narratord",
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "NarratorCommandLineTests", dependencies: ["NarratorCommandLine"], swiftSettings: strict),
        // The daemon's options, and its connection handler on an in-memory loop: bytes in, bytes out, no socket.
        .testTarget(
            name: "NarratorDaemonTests",
            dependencies: [
                "NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan", "NarratorProtocol", "NarratorCore", "NarratorDaemon", "NarratorCommandLine",
                "NarratorSpeech", "NarratorSystem",
            ],
            swiftSettings: strict
        ),
        // A real narratord on a temporary socket, driven by narratorctl and raw socket clients.
        .testTarget(
            name: "NarratorEndToEndTests",
            dependencies: [
                "NarratorBase", "NarratorModel", "NarratorSpeechPlan", "NarratorExperiments", "NarratorSystem", "NarratorPulseHarness", "NarratorTestSupport", "narratord",
                "narratorctl", "narrator-atspi",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "NarratorSpeechTests",
            dependencies: ["NarratorEngines", "NarratorSpeechPlan", "NarratorSpeech", "NarratorSystem", "NarratorPulseHarness"],
            swiftSettings: strict
        ),
        // The announcement queue, its policies and replay simulation, on a virtual clock.
        .testTarget(
            name: "NarratorAnnouncementTests", dependencies: ["NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan", "NarratorSSIP", "NarratorExperiments"],
            swiftSettings: strict
        ),
        .testTarget(name: "NarratorStoreTests", dependencies: ["NarratorSpeechPlan", "NarratorStore", "narrator-log-probe"], swiftSettings: strict),
        // Appends log rows and prints each id once committed, for the SIGKILL durability test.
        .executableTarget(name: "narrator-log-probe", dependencies: ["NarratorSpeechPlan", "NarratorStore"], path: "Tests/Helpers/narrator-log-probe", swiftSettings: strict),
        // The built engine processes (narrator-flite) driven through the engine protocol, as narratord drives them.
        .testTarget(
            name: "NarratorEngineTests",
            dependencies: ["NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSystem", "NarratorTestSupport", "narrator-flite"],
            swiftSettings: strict
        ),
        .testTarget(name: "NarratorCoreSpeechTests", dependencies: ["NarratorBase", "NarratorModel", "NarratorEngines", "NarratorSpeechPlan"], swiftSettings: strict),
        .testTarget(name: "NarratorSystemTests", dependencies: ["NarratorSystem"], swiftSettings: strict),
        // narrator-atspi against real GTK applications (zenity, a fixture of our own) on a headless desktop.
        .testTarget(
            name: "NarratorATSPITests",
            dependencies: ["NarratorATSPI", "NarratorDBus", "NarratorCommandLine", "NarratorDesktopHarness", "NarratorTestSupport", "narrator-atspi", "narratorctl"],
            swiftSettings: strict
        ),
    ]
)
