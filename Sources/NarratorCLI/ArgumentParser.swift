/// A command-line usage mistake: exit status 2, with the message and a pointer to help.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// The command whose help explains the right usage, if known.
    public var command: String?

    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    public var description: String { message }
}

/// Describes an option such as `--priority low|default|high` or the flag `--json`.
public struct OptionSpec: Sendable {
    public var name: String
    /// The placeholder for the value (`PATH`); nil for a flag.
    public var valueName: String?
    public var help: String
    /// Allowed values, checked while parsing (with a suggestion for typos).
    public var choices: [String]?
    /// May be given more than once (values are collected in order).
    public var repeatable: Bool

    public init(_ name: String, value: String? = nil, help: String, choices: [String]? = nil, repeatable: Bool = false) {
        self.name = name
        self.valueName = value
        self.help = help
        self.choices = choices
        self.repeatable = repeatable
    }

    public var isFlag: Bool { valueName == nil }
}

/// Describes a positional argument.
public struct ArgumentSpec: Sendable {
    public var name: String
    public var help: String
    public var optional: Bool
    /// Takes all remaining arguments (joined for text such as `announce TEXT...`).
    public var variadic: Bool

    public init(_ name: String, help: String, optional: Bool = false, variadic: Bool = false) {
        self.name = name
        self.help = help
        self.optional = optional
        self.variadic = variadic
    }
}

/// What the parser found for one command: positional values, option values and flags.
public struct ParsedArguments: Equatable, Sendable {
    public var positionals: [String] = []
    public var options: [String: [String]] = [:]
    public var flags: Set<String> = []

    public func value(_ option: String) -> String? { options[option]?.last }
    public func values(_ option: String) -> [String] { options[option] ?? [] }
    public func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// Splits arguments against a list of option and argument specs. Pure: it never touches the process.
/// Accepts `--opt value`, `--opt=value`, and `--` to end options (so text may start with a dash).
public enum ArgumentParser {
    public static func parse(
        _ arguments: [String], options: [OptionSpec], positionals specs: [ArgumentSpec], command: String
    ) throws(UsageError) -> ParsedArguments {
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
            if !optionsEnded, argument.hasPrefix("--") {
                var name = argument
                var inlineValue: String?
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    inlineValue = String(argument[argument.index(after: equals)...])
                }
                guard let spec = options.first(where: { $0.name == name }) else {
                    let hint = Suggestion.nearest(to: name, in: options.map(\.name)).map { " (did you mean \($0)?)" } ?? ""
                    throw UsageError("\(command): unknown option \(name)\(hint)", command: command)
                }
                if spec.isFlag {
                    if inlineValue != nil { throw UsageError("\(command): \(name) takes no value", command: command) }
                    parsed.flags.insert(name)
                    continue
                }
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError("\(command): \(name) needs a value (\(spec.valueName!))", command: command)
                    }
                    value = arguments[index]
                    index += 1
                }
                if let choices = spec.choices, !choices.contains(value) {
                    let hint = Suggestion.nearest(to: value, in: choices).map { "; did you mean \($0)?" } ?? ""
                    throw UsageError(
                        "\(command): \(name) must be one of \(choices.joined(separator: ", ")), not \"\(value)\"\(hint)",
                        command: command)
                }
                if parsed.options[name] != nil && !spec.repeatable {
                    throw UsageError("\(command): \(name) given twice", command: command)
                }
                parsed.options[name, default: []].append(value)
                continue
            }
            if !optionsEnded, argument.count > 1, argument.hasPrefix("-"), Double(argument) == nil {
                throw UsageError("\(command): unknown option \(argument) (options are spelt with two dashes; use -- before text that starts with a dash)", command: command)
            }
            parsed.positionals.append(argument)
        }
        let required = specs.filter { !$0.optional }.count
        if parsed.positionals.count < required {
            let missing = specs.filter { !$0.optional }[parsed.positionals.count]
            throw UsageError("\(command): missing \(missing.name)", command: command)
        }
        let variadic = specs.last?.variadic ?? false
        if !variadic, parsed.positionals.count > specs.count {
            throw UsageError("\(command): unexpected argument \"\(parsed.positionals[specs.count])\"", command: command)
        }
        return parsed
    }
}
