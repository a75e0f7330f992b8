import Foundation

/// What bash makes of a whole word of the command line being completed, for a value completion
/// uses itself (`--socket ~/n.sock` names the daemon to ask): bash hands the words over as typed.
enum ShellWord {
    /// The word with its quotes removed, its backslash escapes undone, a leading `~` or `~user`
    /// (with `tilde`) and `$NAME` or `${NAME}` expanded. Nil when it cannot be known here: a
    /// variable that is not in `environment` (a shell variable is not exported), `$(...)`, a
    /// backquote, `${...}` with more than a name, `$'...'`, a special parameter (`$1`).
    static func expanded(_ word: String, environment: [String: String], tilde: Bool = true) -> String? {
        evaluated(word, expanding: environment, tilde: tilde)
    }

    /// The text a word, or the start of one being typed, stands for: its quotes removed (an
    /// unclosed one too) and its backslash escapes undone, nothing expanded.
    static func removingQuotes(_ word: String) -> String {
        evaluated(word, expanding: nil, tilde: false) ?? word
    }

    private static func evaluated(_ word: String, expanding environment: [String: String]?, tilde: Bool) -> String? {
        let characters = Array(word)
        var out = ""
        var index = 0
        if tilde, characters.first == "~" {
            // Bash leaves `~name` as it is when no user has that name.
            let end = characters.firstIndex(of: "/") ?? characters.count
            let user = String(characters[1..<end])
            if !user.contains(where: { "'\"\\$`".contains($0) }), let home = user.isEmpty ? environment?["HOME"] ?? home(of: nil) : home(of: user) {
                out = home
                index = end
            }
        }
        var quote: Character?
        while index < characters.count {
            let character = characters[index]
            index += 1
            switch (quote, character) {
            case ("'", "'"): quote = nil
            case ("'", _): out.append(character)
            case (nil, "'"): quote = "'"
            case (_, "\""): quote = quote == nil ? "\"" : nil
            case (nil, "\\"):
                if index < characters.count {
                    out.append(characters[index])
                    index += 1
                }
            case ("\"", "\\"):
                // Inside double quotes a backslash escapes only $ ` " \ and a newline.
                if index < characters.count, "$`\"\\\n".contains(characters[index]) {
                    out.append(characters[index])
                    index += 1
                } else {
                    out.append(character)
                }
            case (_, "`") where environment != nil: return nil
            case (_, "$") where environment != nil:
                guard let environment, index < characters.count else {
                    out.append(character)
                    continue
                }
                let name: String
                let next = characters[index]
                if next == "{" {
                    guard let close = characters[index...].firstIndex(of: "}") else { return nil }
                    name = String(characters[(index + 1)..<close])
                    index = close + 1
                } else if next.isASCII, next.isLetter || next == "_" {
                    let end = characters[index...].firstIndex { !isNameCharacter($0) } ?? characters.count
                    name = String(characters[index..<end])
                    index = end
                } else if quote == "\"" && (next == "\"" || next == "'") || !"0123456789#?$!@*-('\"".contains(next) {
                    // A "$" that starts nothing ("$/", "a$"): itself.
                    out.append(character)
                    continue
                } else {
                    // A special parameter, $(...), $'...', $"...".
                    return nil
                }
                guard let first = name.first, !first.isNumber, name.allSatisfy(isNameCharacter), let value = environment[name] else { return nil }
                out += value
            default: out.append(character)
            }
        }
        return out
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_")
    }

    /// A user's home directory (nil: the user running narratorctl) from the password database.
    private static func home(of user: String?) -> String? {
        guard let entry = user.map({ getpwnam($0) }) ?? getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }
}
