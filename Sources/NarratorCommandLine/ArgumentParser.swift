import NarratorBase

/// What the parser found: positional values, option values and flags.
public struct ParsedArguments: Equatable, Sendable {
    /// One option or flag as it was given: its name (an alias is reported under the option's
    /// name) and its value, nil for a flag.
    public struct Occurrence: Equatable, Sendable {
        public var name: String
        public var value: String?

        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    public var positionals: [String] = []
    public var options: [String: [String]] = [:]
    public var flags: Set<String> = []
    /// Every option and flag in the order given, for callers that apply them one by one.
    public var occurrences: [Occurrence] = []

    public init() {}

    public func value(_ option: String) -> String? { options[option]?.last }
    public func values(_ option: String) -> [String] { options[option] ?? [] }
    public func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// Splits arguments against a list of option and argument specs. Pure: it never touches the process.
/// Accepts `--opt value`, `--opt=value`, and `--` to end options (so text may start with a dash).
public enum ArgumentParser {
    /// Parses `arguments`. Messages start with "`command`: " when a command is named (and the
    /// error carries it, so the caller can show that command's usage).
    ///
    /// `missingValueNamesPlaceholder` words a missing value as "--socket needs a value (PATH)"
    /// when true (narratorctl) and "--socket needs a value" when false (narratord, whose
    /// messages have always been the bare ones).
    public static func parse(
        _ arguments: [String], options: [OptionSpec], positionals specs: [ArgumentSpec] = [], command: String? = nil,
        missingValueNamesPlaceholder: Bool = true
    ) throws(UsageError) -> ParsedArguments {
        func mistake(_ message: String) -> UsageError {
            UsageError(command.map { "\($0): \(message)" } ?? message, command: command)
        }
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !optionsEnded, argument == "--" {
                optionsEnded = true
                continue
            }
            if !optionsEnded, argument.count > 1, argument.hasPrefix("-") {
                var name = argument
                var inlineValue: String?
                if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    inlineValue = String(argument[argument.index(after: equals)...])
                }
                if let spec = options.first(where: { $0.name == name || $0.aliases.contains(name) }) {
                    if spec.isFlag {
                        if inlineValue != nil { throw mistake("\(name) takes no value") }
                        parsed.flags.insert(spec.name)
                        parsed.occurrences.append(.init(name: spec.name, value: nil))
                    } else {
                        let value: String
                        if let inlineValue {
                            value = inlineValue
                        } else {
                            guard index < arguments.count else {
                                let placeholder = missingValueNamesPlaceholder ? spec.valueName.map { " (\($0))" } ?? "" : ""
                                throw mistake("\(name) needs a value\(placeholder)")
                            }
                            value = arguments[index]
                            index += 1
                        }
                        if let choices = spec.choices, !choices.contains(value) { throw mistake(notAChoice(name, value, choices)) }
                        if parsed.options[spec.name] != nil && !spec.repeatable { throw mistake("\(name) given twice") }
                        parsed.options[spec.name, default: []].append(value)
                        parsed.occurrences.append(.init(name: spec.name, value: value))
                    }
                    if spec.endsParsing { return parsed }
                    continue
                }
                if argument.hasPrefix("--") {
                    let hint = Suggestion.nearest(to: name, in: options.map(\.name)).map { " (did you mean \($0)?)" } ?? ""
                    throw mistake("unknown option \(name)\(hint)")
                }
                if Double(argument) == nil {
                    // Where the command takes text, the word may be text that starts with a dash;
                    // elsewhere it can only be a misspelt option.
                    if !specs.isEmpty {
                        throw mistake("unknown option \(argument) (options are spelt with two dashes; use -- before text that starts with a dash)")
                    }
                    let hint = Suggestion.nearest(to: argument, in: options.map(\.name)).map { "did you mean \($0)?" }
                    throw mistake("unknown option \(argument) (\(hint ?? "options are spelt with two dashes"))")
                }
            }
            parsed.positionals.append(argument)
        }
        // A value that is not one of its argument's choices is the first mistake to name (`set rat`:
        // rate was meant, not a missing value).
        for (index, value) in parsed.positionals.enumerated() where index < specs.count || specs.last?.variadic == true {
            let spec = specs[min(index, specs.count - 1)]
            if let choices = spec.choices, !choices.contains(value) { throw mistake(notAChoice(spec.name, value, choices)) }
        }
        let required = specs.filter { !$0.optional }
        if parsed.positionals.count < required.count {
            throw mistake("missing \(required[parsed.positionals.count].name)")
        }
        let variadic = specs.last?.variadic ?? false
        if !variadic, parsed.positionals.count > specs.count {
            throw mistake("unexpected argument \"\(parsed.positionals[specs.count])\"")
        }
        return parsed
    }

    /// "--priority must be one of low, default, high, not "hgh"; did you mean high?", for an
    /// option's value and an argument alike.
    static func notAChoice(_ name: String, _ value: String, _ choices: [String]) -> String {
        let allowed = choices.count == 1 ? choices[0] : "one of " + choices.joined(separator: ", ")
        let hint = choices.count == 1 ? nil : Suggestion.nearest(to: value, in: choices).map { "; did you mean \($0)?" }
        return "\(name) must be \(allowed), not \"\(value)\"\(hint ?? "")"
    }
}
