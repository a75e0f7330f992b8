import Foundation
import NarratorCore
import NarratorSystem

/// Sends one request to the daemon and renders the reply; for `register --follow` and
/// `monitor`, keeps reading events until the daemon closes the connection.
enum DaemonSession {
    /// Connects, sends `{"id": 1, "cmd": ..., fields...}` and reads the first line back.
    /// On success the caller owns (and closes) the connection, which `--follow` keeps reading.
    static func exchange(
        cmd: String, fields: [JSONObject.Member], invocation: Invocation, environment: [String: String], console: Console
    ) -> Result<(client: UnixClient, reply: String), ExitStatus> {
        let path = SocketPath.resolve(flag: invocation.socket, environment: environment, uid: getuid()).path
        let client: UnixClient
        do { client = try UnixClient(connectingTo: path) } catch {
            unreachable(path, error, console)
            return .failure(.unreachable)
        }
        var object = JSONObject([.init(key: "id", value: 1), .init(key: "cmd", value: .string(cmd))])
        object.members.append(contentsOf: fields)
        do {
            try client.send(line: JSONValue.object(object).compactText)
            guard let line = try client.readLine() else {
                console.err("narratorctl: narratord at \(path) closed the connection without replying\n")
                client.close()
                return .failure(.unreachable)
            }
            return .success((client, line))
        } catch {
            console.err("narratorctl: lost the connection to narratord at \(path): \(error)\n")
            client.close()
            return .failure(.unreachable)
        }
    }

    /// One request whose reply another command uses (not printed). Errors are reported on
    /// stderr and come back as the exit status to use.
    static func fetch(
        cmd: String, fields: [JSONObject.Member], invocation: Invocation, environment: [String: String], console: Console
    ) -> Result<JSONObject, ExitStatus> {
        switch exchange(cmd: cmd, fields: fields, invocation: invocation, environment: environment, console: console) {
        case .failure(let status):
            return .failure(status)
        case .success(let (client, line)):
            client.close()
            guard case .object(let reply)? = try? JSONParser().parse(line) else {
                console.err("narratorctl: narratord sent something that is not a JSON object: \(line)\n")
                return .failure(.refused)
            }
            guard reply["ok"] == true else {
                console.err("narratorctl: \(reply["error"]?["message"]?.stringValue ?? line)\n")
                return .failure(.refused)
            }
            return .success(reply)
        }
    }

    static func unreachable(_ path: String, _ error: any Error, _ console: Console) {
        console.err("narratorctl: cannot reach narratord at \(path): \(error)\n")
        console.err("Start it with \"narratord\" (or \"make run\", or \"systemctl --user start narratord.socket\"), or point --socket / $NARRATOR_SOCKET at a running one.\n")
    }

    static func run(_ request: DaemonRequest, invocation: Invocation, environment: [String: String], console: Console) -> ExitStatus {
        var fields = request.fields
        if let (field, path) = request.documentFile {
            guard let bytes = InputFile.read(path, for: request.cmd, console: console) else { return .refused }
            do {
                fields.insert(.init(key: field, value: try DocumentLimits.default.parser.parse(bytes)), at: 0)
            } catch {
                console.err("narratorctl \(request.cmd): \(path == "-" ? "standard input" : path) is not valid JSON: \(error)\n")
                return .refused
            }
        }
        let client: UnixClient
        let replyLine: String
        switch exchange(cmd: request.cmd, fields: fields, invocation: invocation, environment: environment, console: console) {
        case .failure(let status): return status
        case .success(let (connection, line)): (client, replyLine) = (connection, line)
        }
        defer { client.close() }
        guard let reply = try? JSONParser().parse(replyLine), case .object(let replyObject) = reply else {
            console.err("narratorctl: narratord sent something that is not a JSON object: \(replyLine)\n")
            return .refused
        }
        if replyObject["ok"] != true {
            if invocation.json {
                console.out(reply.prettyText + "\n")
            }
            let error = replyObject["error"]
            let message = error?["message"]?.stringValue ?? replyLine
            console.err("narratorctl \(request.cmd == "subscribe" ? "monitor" : request.cmd): \(message)\n")
            if let problems = error?["problems"]?.arrayValue {
                for problem in problems {
                    let path = problem["path"]?.stringValue ?? ""
                    console.err("  \(path.isEmpty ? "" : path + ": ")\(problem["message"]?.stringValue ?? "")\n")
                }
            }
            return .refused
        }
        if invocation.json {
            console.out(reply.compactText + "\n")
        } else {
            let text = ReplyRenderer.render(request.cmd, replyObject)
            if !text.isEmpty { console.out(text + "\n") }
        }
        guard request.follow else { return .success }
        // Follow: print each event as it arrives until the daemon hangs up.
        while true {
            let line: String?
            do { line = try client.readLine() } catch { return .unreachable }
            guard let line else { return .success }
            if invocation.json || request.cmd != "subscribe" {
                console.out(line + "\n")
            } else if let event = try? JSONParser().parse(line), let text = ReplyRenderer.monitorLine(event) {
                console.out(text + "\n")
            }
        }
    }
}
