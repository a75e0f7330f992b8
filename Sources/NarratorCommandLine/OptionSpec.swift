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
    /// The default as help shows it (`auto`, `$XDG_STATE_HOME/narrator`); nil when there is none to show.
    public var shownDefault: String?
    /// Other spellings, such as `-h` for `--help`; the parser reports them under `name`.
    public var aliases: [String]
    /// Ends parsing where it stands, as `--help` does: the arguments after it are not looked at
    /// and missing positionals are not reported.
    public var endsParsing: Bool

    public init(
        _ name: String, value: String? = nil, help: String, choices: [String]? = nil, repeatable: Bool = false,
        shownDefault: String? = nil, aliases: [String] = [], endsParsing: Bool = false
    ) {
        self.name = name
        self.valueName = value
        self.help = help
        self.choices = choices
        self.repeatable = repeatable
        self.shownDefault = shownDefault
        self.aliases = aliases
        self.endsParsing = endsParsing
    }

    public var isFlag: Bool { valueName == nil }

    /// How help names the option: `--socket PATH`, or `--json` for a flag.
    public var synopsis: String { valueName.map { "\(name) \($0)" } ?? name }

    /// The help followed by the choices and the default, when there are any:
    /// `speech priority (low, default, high) (default: default)`.
    public var annotatedHelp: String { annotated(help, choices: choices, shownDefault: shownDefault) }
}

/// Help followed by the choices and the default, for options and arguments alike.
private func annotated(_ help: String, choices: [String]?, shownDefault: String?) -> String {
    var text = help
    if let choices { text += " (\(choices.joined(separator: ", ")))" }
    if let shownDefault { text += " (default: \(shownDefault))" }
    return text
}

/// Describes a positional argument.
public struct ArgumentSpec: Sendable {
    public var name: String
    public var help: String
    public var optional: Bool
    /// Takes all remaining arguments (joined for text such as `announce TEXT...`).
    public var variadic: Bool
    /// Allowed values, checked while parsing (with a suggestion for typos), shown by help and
    /// offered by completion, as an option's are.
    public var choices: [String]?
    /// The value taken when an optional argument is left out, as help shows it.
    public var shownDefault: String?

    public init(
        _ name: String, help: String, optional: Bool = false, variadic: Bool = false, choices: [String]? = nil, shownDefault: String? = nil
    ) {
        self.name = name
        self.help = help
        self.optional = optional
        self.variadic = variadic
        self.choices = choices
        self.shownDefault = shownDefault
    }

    /// The help followed by the choices and the default: `which way to move (next, previous,
    /// first, last) (default: next)`.
    public var annotatedHelp: String { annotated(help, choices: choices, shownDefault: shownDefault) }
}
