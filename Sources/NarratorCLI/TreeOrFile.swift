import NarratorModel
import NarratorSystem
import Synchronization

/// A `FILE|TREE` argument (`show`, `audit`): a registered tree of that name first, because trees
/// are named by what they show and may look like paths ("mousepad: /tmp/notes.txt - Mousepad");
/// else a file. `-` is standard input, and a path that starts with `/`, `./` or `../` is always a
/// file (`./player.json` when a tree is also called `player.json`).
enum TreeOrFile {
    enum Source {
        /// Read the document from this file (or `-`).
        case file(String)
        /// The registered tree's document, as narratord exported it.
        case tree(JSONValue)
        /// Neither: what went wrong is said already.
        case failed(ExitStatus)
    }

    static func isExplicitPath(_ argument: String) -> Bool {
        argument == "-" || argument.hasPrefix("/") || argument.hasPrefix("./") || argument.hasPrefix("../")
    }

    static func resolve(_ argument: String, for command: String, invocation: Invocation, environment: [String: String], console: Console) -> Source {
        if isExplicitPath(argument) { return .file(argument) }
        let looksLikeFile = InputFile.isFile(argument)
        // Asked quietly: a daemon that is away, or has no such tree, is no error when a file is meant.
        let held = HeldErrors()
        let quiet = Console(out: console.out, err: { line in held.lines.withLock { $0.append(line) } }, readStandardInput: console.readStandardInput)
        switch DaemonSession.exchange(.export(tree: argument), as: command, invocation: invocation, environment: environment, console: quiet) {
        case .failure(let status):
            if looksLikeFile { return .file(argument) }
            for line in held.lines.withLock({ $0 }) { console.err(line) }
            return .failed(status)
        case .success(let (client, reply, _)):
            client.close()
            switch reply.outcome {
            case .success(.exported(_, let document)):
                return .tree(document)
            case .success:
                console.err("narratorctl \(command): narratord answered export with something else\n")
                return .failed(.refused)
            case .failure(let error) where error.code == .unknownTree && looksLikeFile:
                guard argument.hasSuffix(".json") || (try? Syscall.stat(argument)) != nil else {
                    console.err("narratorctl \(command): \(error.message), and there is no file \(argument) either\n")
                    return .failed(.refused)
                }
                return .file(argument)
            case .failure(let error):
                DaemonSession.refused(error, by: command, console)
                return .failed(.refused)
            }
        }
    }

    /// Lines held back until it is known whether they matter.
    private final class HeldErrors: Sendable {
        let lines = Mutex<[String]>([])
    }
}
