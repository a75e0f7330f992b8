import NarratorCommandLine

/// What `narrator-atspi` was asked to do, parsed from its arguments without touching the process.
public enum BridgeCommand: Equatable, Sendable {
    /// Print the tree document of every top-level window, one per line.
    /// `walk`: read with libatspi, one blocking call per property (the naive way, kept to
    /// compare with).
    case dump(application: String?, walk: Bool)
    /// Mirror every window into the narratord at `socket` (nil: the usual place) until it stops.
    case run(socket: String?, keys: KeySource)
    case help

    /// Where the user's keys come from.
    public enum KeySource: String, Equatable, Sendable, CaseIterable {
        /// The X server: raw events for every key, grabs for Narrator's own, so no other key
        /// waits for Narrator (AT-SPI2's listener when there is no X server).
        case x11
        /// AT-SPI2's synchronous keystroke listener: the toolkit holds every key until Narrator
        /// answers (GTK 3 and Firefox send their keys there; GTK 4 sends none).
        case atspi
    }

    static let runOptions = [
        OptionSpec("--socket", value: "PATH", help: "narratord's socket", shownDefault: "$NARRATOR_SOCKET, then $XDG_RUNTIME_DIR/narrator/narratord.sock"),
        OptionSpec("--keys", value: "x11|atspi", help: "where the user's keys come from", shownDefault: "x11"),
        OptionSpec("--help", help: "show this help", aliases: ["-h"], endsParsing: true),
    ]

    static let dumpOptions = [
        OptionSpec("--application", value: "NAME", help: "only this application's windows (its AT-SPI name, as zenity or gtk3-widget-factory)"),
        OptionSpec("--walk", help: "read with libatspi, one blocking call per property, instead of in bulk"),
        OptionSpec("--help", help: "show this help", aliases: ["-h"], endsParsing: true),
    ]

    /// Parses `arguments` (without the program's name).
    public static func parse(_ arguments: [String]) throws(UsageError) -> BridgeCommand {
        guard let command = arguments.first else { throw UsageError("a command is needed: run or dump (see --help)") }
        switch command {
        case "--help", "-h", "help":
            return .help
        case "run":
            let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), options: runOptions, command: "run")
            if parsed.has("--help") { return .help }
            let keys = parsed.value("--keys") ?? KeySource.x11.rawValue
            guard let source = KeySource(rawValue: keys) else {
                throw UsageError("--keys is x11 or atspi, not '\(keys)'")
            }
            return .run(socket: parsed.value("--socket"), keys: source)
        case "dump":
            let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), options: dumpOptions, command: "dump")
            if parsed.has("--help") { return .help }
            return .dump(application: parsed.value("--application"), walk: parsed.has("--walk"))
        default:
            throw UsageError("unknown command '\(command)': the commands are run and dump (see --help)")
        }
    }

    public static let helpText = """
        narrator-atspi: reads desktop applications (GTK, Qt) through AT-SPI2 as Narrator trees

        Usage: narrator-atspi run [--socket PATH] [--keys x11|atspi]
               narrator-atspi dump [--application NAME] [--walk]

        Commands:
          run     mirror every window of the desktop's applications into narratord, as trees this
                  connection owns, and keep them in step: changes are sent as updates, closed
                  windows and applications that leave are unregistered, the applications' focus
                  moves Narrator's, and narratorctl activate, action and adjust act in the
                  application; when narratord stops, it tries again every second and, once
                  narratord is back, registers every window again
          dump    print the tree document of each top-level window of the desktop's applications,
                  one JSON document per line, as Narrator maps them (docs/atspi.md); each can be
                  read with `narratorctl show -`

        Options:
          --socket PATH        (run) narratord's socket (default: $NARRATOR_SOCKET, then $XDG_RUNTIME_DIR/narrator/narratord.sock)
          --keys x11|atspi     (run) where the user's keys come from (default: x11): the X server's
                               raw events, with only Narrator's own keys grabbed, so no other key
                               waits for Narrator; or AT-SPI2's keystroke listener, which holds
                               every key until Narrator answers (used anyway without an X server)
          --application NAME   (dump) only this application's windows (its AT-SPI name: zenity, gtk3-widget-factory)
          --walk               (dump) read with libatspi, one blocking D-Bus call per property and
                               object, instead of in bulk (the naive way, to compare with)
          --help               show this help

        The accessibility bus is found as every AT-SPI2 client finds it: from the session bus
        (DBUS_SESSION_BUS_ADDRESS) or the X display's AT_SPI_BUS property.

        Exit status: 0 success, 1 no window matched (dump), 2 usage error, 3 the accessibility bus or
        (at start) narratord could not be reached.
        """
}
