import NarratorCommandLine

/// `narratorctl keys`'s grammar (its running is KeysCommand.swift's, apart so that the argument
/// fuzzer links no file reading).
public enum KeysCommand {
    /// What `keys` prints.
    public enum Listing: Equatable, Sendable { case bindings(file: String?), commands, markdown }

    static let spec = CommandSpec(
        name: "keys", summary: "list Narrator's keys: the bindings in force, the keymap file's refused lines",
        options: [
            OptionSpec("--file", value: "PATH", help: "the keymap file to read (default: $XDG_CONFIG_HOME/narrator/keymap)"),
            OptionSpec("--commands", help: "list the commands a keymap line may name"),
            OptionSpec("--markdown", help: "print docs/keys.md (both layouts' defaults)"),
        ],
        discussion: """
            Prints each binding (chord, command, what it does) on the keymap's layout, after the
            keymap file's refused lines, each with its number, on stderr; exit 1 when a line was
            refused. With --json an object {layout, file, bindings: [{chord, command, summary}],
            problems: [{line, message}]}. narrator-atspi reads the file when it starts and on SIGHUP;
            docs/keys.md describes it.
            """,
        connects: .never,
        build: { parsed throws(UsageError) in
            if parsed.has("--markdown") { return .keys(.markdown) }
            if parsed.has("--commands") { return .keys(.commands) }
            return .keys(.bindings(file: parsed.value("--file")))
        })
}
