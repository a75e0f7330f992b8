import NarratorBase
import NarratorCommandLine

/// Parses `narratorctl [--socket PATH] [--json] COMMAND [ARGS]`. Pure, like swift-argument-parser's
/// `parse([String])`: only `main` touches the process.
///
/// `--json` and `--socket` mean the same before the command as after it: the ones given before are
/// handed to the command's grammar as if given after, so every command sees them the same way.
/// `--socket` says where narratord is, and a command that works offline simply does not need it;
/// `--json` is refused, in either place, by a command without JSON output (help lists only the
/// options a command uses).
public enum InvocationParser {
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var socket: String?
        var json = false
        var index = 0
        var name: String?
        // Global options before the command.
        while index < arguments.count, arguments[index].hasPrefix("-") {
            let argument = arguments[index]
            index += 1
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let inlineValue = argument.hasPrefix("--") && parts.count == 2 ? parts[1] : nil
            guard let option = GlobalOption.named(inlineValue == nil ? argument : parts[0]) else {
                let hint = Suggestion.nearest(to: argument, in: GlobalOption.allCases.map(\.rawValue))
                throw UsageError("unknown option \(argument)" + (hint.map { " (did you mean \($0)?)" } ?? ""))
            }
            if option.spec.isFlag, inlineValue != nil { throw UsageError("\(option.rawValue) takes no value") }
            switch option {
            case .json: json = true
            case .help: return Invocation(socket: socket, json: json, command: .help(topic: nil))
            case .socket:
                if let inlineValue {
                    socket = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("--socket needs a value (PATH)") }
                    socket = arguments[index]
                    index += 1
                }
            case .version:
                // The `version` command; what follows are its options (`--version --json`).
                name = option.command
            }
            if name != nil { break }
        }
        if name == nil {
            guard index < arguments.count else {
                throw UsageError("missing command; run \"narratorctl help\" to list them")
            }
            name = arguments[index]
            index += 1
        }
        let command = name!
        guard let spec = commandSpec(named: command) else {
            let hint = Suggestion.nearest(to: command, in: commandCatalog.map(\.name)).map { "; did you mean \"\($0)\"?" } ?? ""
            throw UsageError("unknown command \"\(command)\"\(hint) (run \"narratorctl help\" to list commands)")
        }
        let rest = Array(arguments[index...])
        if asksForHelp(rest, options: spec.acceptedOptions) {
            return Invocation(socket: socket, json: json, command: .help(topic: command))
        }
        // A global option the command does not use is refused with the reason, wherever it stands
        // and before any other mistake, so that both places give the same answer.
        let after = rest.prefix { $0 != "--" }.map { $0.split(separator: "=", maxSplits: 1).first.map(String.init) ?? $0 }
        let given = (json ? ["--json"] : []) + (socket != nil ? ["--socket"] : []) + after
        if let option = given.first(where: { spec.inapplicableGlobals[$0] != nil }) {
            throw UsageError("\(command): \(option) does not apply: \(spec.inapplicableGlobals[option]!)", command: command)
        }
        var parsed = try ArgumentParser.parse(rest, options: spec.acceptedOptions, positionals: spec.arguments, command: command)
        // Given before the command: as if given after it (where it was given too, that one wins).
        if json { parsed.flags.insert("--json") }
        if let socket, parsed.options["--socket"] == nil { parsed.options["--socket"] = [socket] }
        return Invocation(socket: parsed.value("--socket"), json: parsed.has("--json"), command: try spec.build(parsed))
    }

    /// Whether `--help` or `-h` is given as an option: before "--" (after it every word is an
    /// argument: `announce -- -h` says "-h") and not as another option's value (`--key -h`).
    /// Anywhere else it wins over every other mistake, so help is one flag away.
    static func asksForHelp(_ arguments: [String], options: [OptionSpec]) -> Bool {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" { return false }
            if GlobalOption.named(argument) == .help { return true }
            if argument.hasPrefix("-"), !argument.contains("="),
                let spec = options.first(where: { $0.name == argument || $0.aliases.contains(argument) }), !spec.isFlag
            {
                index += 1
            }
        }
        return false
    }
}
