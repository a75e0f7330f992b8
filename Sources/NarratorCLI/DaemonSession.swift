import Foundation
import NarratorModel
import NarratorProtocol
import NarratorSystem

/// Sends one request to the daemon and renders the reply; for `register --follow` and
/// `monitor`, keeps reading events until the daemon closes the connection.
enum DaemonSession {
    /// Connects, sends the request (id 1) and reads its reply. On success the caller owns (and
    /// closes) the connection, which `--follow` keeps reading.
    static func exchange(
        _ command: RequestCommand, as name: String, invocation: Invocation, environment: [String: String], console: Console
    ) -> Result<(client: UnixClient, reply: Reply, line: String), ExitStatus> {
        let path = SocketPath.resolve(flag: invocation.socket, environment: environment, uid: getuid()).path
        let client: UnixClient
        do { client = try UnixClient(connectingTo: path) } catch {
            unreachable(path, error, console)
            return .failure(.unreachable)
        }
        do {
            try client.send(line: Request(id: 1, command: command).line)
            guard let line = try client.readLine() else {
                console.err("narratorctl: narratord at \(path) closed the connection without replying\n")
                client.close()
                return .failure(.unreachable)
            }
            guard case .reply(let reply) = try ServerMessage(line: line, answering: command.name) else {
                console.err("narratorctl \(name): narratord sent an event before its reply: \(line)\n")
                client.close()
                return .failure(.refused)
            }
            return .success((client, reply, line))
        } catch let error as ProtocolError {
            console.err("narratorctl \(name): narratord sent a reply this narratorctl cannot read (\(error.message))\n")
            client.close()
            return .failure(.refused)
        } catch {
            console.err("narratorctl: lost the connection to narratord at \(path): \(error)\n")
            client.close()
            return .failure(.unreachable)
        }
    }

    /// Why the daemon cannot be reached and what to do about it, said once: narratorctl words each
    /// case itself instead of printing the client error's text (which has advice of its own) and more.
    static func unreachable(_ path: String, _ error: any Error, _ console: Console) {
        let start = "Start it with \"narratord\" (or \"make run\", or \"systemctl --user start narratord.socket\"), or point --socket / $NARRATOR_SOCKET at a running one."
        let pointAtSocket = "Point --socket / $NARRATOR_SOCKET at narratord's socket file itself"
        var problem: String
        var advice: String
        switch error as? UnixClientError {
        case .noSocket?:
            problem = "no socket there: narratord is not running, or it listens elsewhere"
            advice = start
        case .connectionRefused?:
            // connect(2) refuses a path that is not a socket at all the same way as a stale one.
            if let file = try? Syscall.stat(path), !file.isSocket {
                problem = file.isDirectory ? "it is a directory, not a socket" : "it is not a socket"
                advice = pointAtSocket
                if file.isDirectory, (try? Syscall.stat(path + "/" + SocketPath.socketName))?.isSocket == true {
                    advice += " (such as \(path)/\(SocketPath.socketName))"
                }
                advice += "."
            } else {
                problem = "nothing is listening: narratord probably exited and left a stale socket"
                advice = start
            }
        case .permissionDenied?:
            problem = "permission denied: the socket or its directory belongs to another user"
            advice = "Start your own narratord, or point --socket / $NARRATOR_SOCKET at yours."
        default:
            problem = "\(error)"
            advice = start
        }
        console.err("narratorctl: cannot reach narratord at \(path): \(problem)\n\(advice)\n")
    }

    /// The daemon hung up on a connection narratorctl keeps open (`monitor`, `register --follow`).
    static func closed(_ name: String, _ path: String, _ console: Console) -> ExitStatus {
        console.err("narratorctl \(name): narratord at \(path) closed the connection (it stopped or restarted)\n")
        return .unreachable
    }

    /// A refusal: the daemon's message, or for an invalid document a headline and each problem
    /// on a line of its own (the daemon's message joins the same problems on one line).
    static func refused(_ error: ReplyError, by name: String, _ console: Console) {
        guard !error.problems.isEmpty else {
            console.err("narratorctl \(name): \(error.message)\n")
            return
        }
        let what = name == "register" ? "the tree document" : "the \(name)"
        console.err("narratorctl \(name): narratord refused \(what) (\(counted(error.problems.count, "problem"))):\n")
        for problem in error.problems { console.err("  \(problem)\n") }
    }

    static func run(_ request: DaemonRequest, invocation: Invocation, environment: [String: String], console: Console) -> ExitStatus {
        let command: RequestCommand
        var follow = false
        switch request {
        case .send(let sent):
            command = sent
        case .monitor:
            command = .subscribe
            follow = true
        case .register(let file, let ephemeral, let following):
            guard let bytes = InputFile.read(file, for: "register", console: console) else { return .refused }
            do {
                // Checked here so that a broken file is reported with its line and column, and
                // sent on one line whatever its layout.
                let document = try DocumentLimits.default.parser.parse(bytes)
                command = .register(document: try RawJSON(document.compactText), ephemeral: ephemeral)
            } catch {
                console.err("narratorctl register: \(file == "-" ? "standard input" : file) is not valid JSON: \(error)\n")
                return .refused
            }
            follow = following
        }
        let client: UnixClient
        let reply: Reply
        let replyLine: String
        switch exchange(command, as: request.name, invocation: invocation, environment: environment, console: console) {
        case .failure(let status): return status
        case .success(let (connection, answer, line)): (client, reply, replyLine) = (connection, answer, line)
        }
        defer { client.close() }
        switch reply.outcome {
        case .failure(let error):
            if invocation.json { console.out(reply.json.prettyText + "\n") }
            refused(error, by: request.name, console)
            return .refused
        case .success(let body):
            if invocation.json {
                // monitor prints events only; its subscribe reply says nothing the user asked for.
                if request != .monitor { console.out(replyLine + "\n") }
            } else {
                let text = ReplyRenderer.render(body, answering: command.name)
                if !text.isEmpty { console.out(text + "\n") }
                if let note = ReplyRenderer.note(body, for: command) { console.err(note + "\n") }
            }
        }
        guard follow else { return .success }
        // Follow: print each event as it arrives until the daemon hangs up, which ends what the
        // user asked for (a monitor, an owner's connection): said, and exit 3.
        while true {
            let line: String?
            do { line = try client.readLine() } catch {
                console.err("narratorctl \(request.name): lost the connection to narratord at \(client.path): \(error)\n")
                return .unreachable
            }
            guard let line else { return closed(request.name, client.path, console) }
            if invocation.json || request != .monitor {
                console.out(line + "\n")
            } else if case .event(let event)? = try? ServerMessage(line: line, answering: command.name), let text = ReplyRenderer.monitorLine(event) {
                console.out(text + "\n")
            }
        }
    }
}
