import NarratorATSPI
import NarratorCommandLine
import Testing

/// `narrator-atspi`'s arguments, parsed without a desktop.
@Suite struct BridgeCommandTests {
    @Test func runTakesASocket() throws {
        #expect(try BridgeCommand.parse(["run"]) == .run(socket: nil, keys: .x11))
        #expect(try BridgeCommand.parse(["run", "--socket", "/tmp/n.sock"]) == .run(socket: "/tmp/n.sock", keys: .x11))
        #expect(try BridgeCommand.parse(["run", "--keys", "atspi"]) == .run(socket: nil, keys: .atspi))
        #expect(try BridgeCommand.parse(["run", "--help"]) == .help)
    }

    @Test func dumpTakesAnApplication() throws {
        #expect(try BridgeCommand.parse(["dump"]) == .dump(application: nil, walk: false))
        #expect(try BridgeCommand.parse(["dump", "--application", "zenity"]) == .dump(application: "zenity", walk: false))
        #expect(try BridgeCommand.parse(["dump", "--application=zenity", "--walk"]) == .dump(application: "zenity", walk: true))
        #expect(try BridgeCommand.parse(["--help"]) == .help)
        #expect(try BridgeCommand.parse(["dump", "--help"]) == .help)
    }

    @Test func mistakesSayWhatIsWrong() {
        #expect(throws: UsageError("a command is needed: run or dump (see --help)")) { try BridgeCommand.parse([]) }
        #expect(throws: UsageError("unknown command 'mirror': the commands are run and dump (see --help)")) { try BridgeCommand.parse(["mirror"]) }
        #expect(throws: UsageError.self) { try BridgeCommand.parse(["run", "--socket"]) }
        #expect(throws: UsageError("--keys is x11 or atspi, not 'evdev'")) { try BridgeCommand.parse(["run", "--keys", "evdev"]) }
        #expect(throws: UsageError.self) { try BridgeCommand.parse(["dump", "--application"]) }
        #expect(throws: UsageError.self) { try BridgeCommand.parse(["dump", "--apps", "x"]) }
    }

    @Test func helpNamesEveryOptionAndExitStatus() {
        for word in ["run", "dump", "--socket", "--keys", "--application", "--walk", "narratorctl show -", "Exit status"] {
            #expect(BridgeCommand.helpText.contains(word), "\(word)")
        }
    }
}
