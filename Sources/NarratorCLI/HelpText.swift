import NarratorCommandLine

/// Help screens, generated from the command catalog so they cannot drift from the parser.
enum HelpText {
    static var overview: String {
        let width = (commandCatalog.map(\.name.count).max() ?? 0) + 2
        let commands = commandCatalog.map { spec in
            "  " + spec.name + String(repeating: " ", count: width - spec.name.count) + spec.summary
        }
        let globals = GlobalOption.specs
        let options = HelpColumns.render(
            globals.map { ($0.synopsis, $0.help) }, column: (globals.map(\.synopsis.count).max() ?? 0) + 2, width: 80)
        return """
            narratorctl: control the Narrator speech daemon and work with accessibility trees.

            Usage: narratorctl [--socket PATH] [--json] COMMAND [ARGS]

            Commands:
            \(commands.joined(separator: "\n"))

            Options (before or after the command, for the commands that use them):
            \(options)

            Exit status: 0 success, 1 refused or invalid input, 2 usage error, 3 daemon unreachable
            (or, for monitor and register --follow, the daemon closed the connection).
            """
    }

    static func command(_ spec: CommandSpec) -> String {
        var text = "narratorctl \(spec.name): \(spec.summary)\n\nUsage: \(spec.usage)\n"
        let options = spec.options + spec.globalOptions
        let lefts = spec.arguments.map(\.name) + options.map(\.synopsis)
        let column = (lefts.map(\.count).max() ?? 0) + 2
        if !spec.arguments.isEmpty {
            text += "\nArguments:\n"
            text += HelpColumns.render(spec.arguments.map { ($0.name, $0.annotatedHelp) }, column: column) + "\n"
        }
        text += "\nOptions:\n"
        text += HelpColumns.render(options.map { ($0.synopsis, $0.annotatedHelp) }, column: column) + "\n"
        if !spec.discussion.isEmpty { text += "\n" + spec.discussion + "\n" }
        return text
    }
}
