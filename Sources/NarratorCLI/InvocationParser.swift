import NarratorCommandLine

/// Parses `narratorctl [--socket PATH] [--json] COMMAND [ARGS]`. Pure, like swift-argument-parser's
/// `parse([String])`: only `main` touches the process.
public enum InvocationParser {
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var socket: String?
        var json = false
        var index = 0
        // Global options before the command.
        while index < arguments.count, arguments[index].hasPrefix("-") {
            let argument = arguments[index]
            switch argument {
            case "--json": json = true
            case "--help", "-h": return Invocation(socket: socket, json: json, command: .help(topic: nil))
            case "--version": return Invocation(socket: socket, json: json, command: .version)
            case "--socket":
                guard index + 1 < arguments.count else { throw UsageError("--socket needs a value (PATH)") }
                socket = arguments[index + 1]
                index += 1
            default:
                if argument.hasPrefix("--socket=") {
                    socket = String(argument.dropFirst("--socket=".count))
                } else {
                    let hint = Suggestion.nearest(to: argument, in: ["--json", "--socket", "--help", "--version"])
                    throw UsageError("unknown option \(argument)" + (hint.map { " (did you mean \($0)?)" } ?? ""))
                }
            }
            index += 1
        }
        guard index < arguments.count else {
            throw UsageError("missing command; run \"narratorctl help\" to list them")
        }
        let name = arguments[index]
        guard let spec = commandSpec(named: name) else {
            let hint = Suggestion.nearest(to: name, in: commandCatalog.map(\.name)).map { "; did you mean \"\($0)\"?" } ?? ""
            throw UsageError("unknown command \"\(name)\"\(hint) (run \"narratorctl help\" to list commands)")
        }
        let rest = Array(arguments[(index + 1)...])
        if rest.contains("--help") || rest.contains("-h") {
            return Invocation(socket: socket, json: json, command: .help(topic: name))
        }
        let parsed = try ArgumentParser.parse(
            rest, options: spec.options + commonOptions, positionals: spec.arguments, command: name)
        if parsed.has("--json") { json = true }
        if let value = parsed.value("--socket") { socket = value }
        return Invocation(socket: socket, json: json, command: try spec.build(parsed))
    }
}
