import Foundation
import NarratorBase
import NarratorModel

/// The `narratorctl` program as a function of its arguments and console, for `main` and for tests.
public enum NarratorCtl {
    public static func run(_ arguments: [String], environment: [String: String] = [:], console: Console) -> ExitStatus {
        // The completion script's question (hidden: not a command of the catalog).
        if arguments.first == "__complete" {
            guard arguments.count >= 3, let current = Int(arguments[1]), current >= 0 else { return .usage }
            // The script passes bash's COMP_LINE, which tells "a:b" from "a: b".
            let candidates = Completion.complete(Array(arguments.dropFirst(2)), current: current, line: environment["COMP_LINE"], environment: environment) {
                socket in
                CompletionFacts.daemon(socket: socket, environment: environment)
            }
            console.out(candidates.output)
            return .success
        }
        let invocation: Invocation
        do {
            invocation = try InvocationParser.parse(arguments)
        } catch {
            // "narratorctl update: ...", as the command's other messages read, not "narratorctl: update: ...".
            if let command = error.command, error.message.hasPrefix(command + ": ") {
                console.err("narratorctl \(error.message)\n")
            } else {
                console.err("narratorctl: \(error.message)\n")
            }
            if let command = error.command {
                console.err("usage: \(commandSpec(named: command)!.usage)\n(see \"narratorctl help \(command)\")\n")
            }
            return .usage
        }
        switch invocation.command {
        case .show(let target):
            switch TreeOrFile.resolve(target, for: "show", invocation: invocation, environment: environment, console: console) {
            case .file(let file): return ShowCommand.run(file: file, json: invocation.json, console: console)
            case .tree(let document): return ShowCommand.run(registered: target, document: document, json: invocation.json, console: console)
            case .failed(let status): return status
            }
        case .announcements(let command):
            return AnnouncementTools.run(command, json: invocation.json, environment: environment, console: console)
        case .daemon(let request):
            return DaemonSession.run(request, invocation: invocation, environment: environment, console: console)
        case .keys(let listing):
            return KeysCommand.run(listing, json: invocation.json, environment: environment, console: console)
        case .audit(let request):
            return AuditCommand.run(request, json: invocation.json, invocation: invocation, environment: environment, console: console)
        case .help(let topic):
            if let topic {
                guard let spec = commandSpec(named: topic) else {
                    console.err("narratorctl: no command \"\(topic)\"\(Suggestion.hint(for: topic, in: commandCatalog.map(\.name)))\n")
                    return .usage
                }
                console.out(HelpText.command(spec))
            } else {
                console.out(HelpText.overview + "\n")
            }
            return .success
        case .completion:
            console.out(BashCompletion.script)
            return .success
        case .version:
            if invocation.json {
                let versions: JSONValue = [
                    "narratorctl": .string(NarratorVersion.daemon), "protocol": .number(Double(NarratorVersion.protocolVersion)),
                    "treeFormat": .number(Double(NarratorVersion.treeFormat)),
                ]
                console.out(versions.prettyText + "\n")
            } else {
                console.out(
                    "narratorctl \(NarratorVersion.daemon) (protocol \(NarratorVersion.protocolVersion), tree format \(NarratorVersion.treeFormat))\n")
            }
            return .success
        }
    }
}
