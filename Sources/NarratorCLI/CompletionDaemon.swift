import Foundation
import NarratorModel
import NarratorProtocol
import NarratorSystem

extension CompletionFacts {
    /// Asks the daemon at the socket `--socket` names (else the default one), one short request per
    /// question, quietly: no daemon, a refusal or no answer within `timeout` is an empty list.
    static func daemon(socket flag: String?, environment: [String: String], timeout: Duration = .milliseconds(1500)) -> CompletionFacts {
        let path = SocketPath.resolve(flag: flag, environment: environment, uid: getuid()).path
        @Sendable func ask(_ command: RequestCommand) -> ReplyBody? {
            guard let client = try? UnixClient(connectingTo: path) else { return nil }
            defer { client.close() }
            guard (try? client.send(line: Request(id: 1, command: command).line)) != nil,
                let line = try? client.readLine(timeout: timeout),
                case .reply(let reply)? = try? ServerMessage(line: line, answering: command.name),
                case .success(let body) = reply.outcome
            else { return nil }
            return body
        }
        return CompletionFacts(
            trees: {
                guard case .trees(let trees)? = ask(.trees) else { return [] }
                return trees.map(\.tree)
            },
            stops: { tree in
                guard case .stops(_, let stops)? = ask(.show(tree: tree)) else { return [] }
                return stops.map(\.id)
            },
            elements: { tree in
                guard case .exported(_, let document)? = ask(.export(tree: tree)), let root = document["root"] else { return [] }
                return ids(in: root)
            },
            voices: { query in
                guard case .voices(let listing)? = ask(.voices(query)) else { return [] }
                return listing.entries
            },
            actions: {
                guard case .actions(let actions)? = ask(.actions) else { return [] }
                return actions
            },
            rotors: {
                guard case .rotors(let rotors)? = ask(.rotors) else { return [] }
                return rotors.map(\.name)
            })
    }

    /// Every node's id in a document's node and its children, in document order.
    private static func ids(in node: JSONValue) -> [String] {
        var found: [String] = []
        if case .string(let id)? = node["id"] { found.append(id) }
        if case .array(let children)? = node["children"] {
            for child in children { found += ids(in: child) }
        }
        return found
    }
}
