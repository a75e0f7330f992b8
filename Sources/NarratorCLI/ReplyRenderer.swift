import NarratorCore

/// Human-readable output for daemon replies: the utterance for navigation, tables for lists.
enum ReplyRenderer {
    static func render(_ cmd: String, _ reply: JSONObject) -> String {
        if cmd == "adjust", reply["delivered"] == true { return delivered(reply) }
        let navigation = ["focus", "next", "previous", "first", "last", "touch", "adjust", "rotor"]
        switch cmd {
        case _ where navigation.contains(cmd) && reply["utterance"] != nil:
            var text = reply["utterance"]?.stringValue ?? ""
            if reply["boundary"] == true { text += " (boundary)" }
            if let hint = reply["hint"]?.stringValue { text += "\n  hint: " + hint }
            return text
        case "rotor":
            return table(
                ["ROTOR", "KIND", "ITEMS"],
                (reply["rotors"]?.arrayValue ?? []).map {
                    [$0["name"]?.stringValue ?? "", $0["kind"]?.stringValue ?? "", ($0["items"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")]
                })
        case "activate", "action", "magic-tap", "escape":
            return delivered(reply)
        case "actions":
            return (reply["actions"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: "\n")
        case "trees":
            return table(
                ["TREE", "TITLE", "STOPS", "NODES", "OWNER", "FOCUSED"],
                (reply["trees"]?.arrayValue ?? []).map { tree in
                    let owner = tree["owner"]?.nonNull
                    return [
                        tree["tree"]?.stringValue ?? "", tree["title"]?.stringValue ?? "", number(tree["stops"]), number(tree["nodes"]),
                        owner.map { "pid " + number($0["pid"]) } ?? (tree["ephemeral"] == true ? "-" : "none"),
                        tree["focused"] == true ? "yes" : "",
                    ]
                })
        case "show":
            return (reply["stops"]?.arrayValue ?? []).compactMap { $0["utterance"]?.stringValue }.joined(separator: "\n")
        case "status":
            let audio = reply["audio"]
            let focus = reply["focus"]?.nonNull
            var lines = [
                "narratord \(reply["version"]?.stringValue ?? "") (pid \(number(reply["pid"])))",
                "uptime:   \(reply["uptime"]?.numberValue.map { JSONWriter.format(($0 * 10).rounded() / 10) } ?? "?") s",
                "socket:   \(reply["socket"]?.stringValue ?? "passed by systemd")",
                "clients:  \(number(reply["clients"]))",
                "trees:    \(number(reply["trees"]))",
                "focus:    \(focus.map { "\($0["tree"]?.stringValue ?? "")/\($0["element"]?.stringValue ?? "")" } ?? "none")",
                "audio:    \(audio?["output"]?.stringValue ?? "?") (requested \(audio?["spec"]?.stringValue ?? "?"))",
                "voice:    \(reply["voice"]?.stringValue ?? "?")",
                "speaking: \(reply["speaking"] == true ? "yes" : "no"), \(number(reply["queue"])) waiting",
            ]
            if let announcements = reply["announcements"]?.nonNull {
                lines.append("policy:   \(announcements["policy"]?.stringValue ?? "?"), \(number(announcements["waiting"])) announcement(s) waiting")
            }
            if let log = reply["log"]?.nonNull {
                let state = log["ok"] == true
                    ? "ok, \(number(log["rows"])) rows"
                    : "NOT WRITING: \(log["reason"]?.stringValue ?? log["error"]?.stringValue ?? "unknown error")"
                        + (log["open"] == false ? "; the file is opened again as soon as it can be" : "")
                lines.append("log:      \(log["path"]?.stringValue ?? "?") (\(state))")
            }
            if audio?["fallback"] == true {
                lines.insert("fallback: \(audio?["detail"]?.stringValue ?? "sound server unreachable")", at: 7)
            }
            return lines.joined(separator: "\n")
        case "voices":
            return table(
                ["NAME", "LANGUAGES", "GENDER"],
                (reply["voices"]?.arrayValue ?? []).map {
                    [$0["name"]?.stringValue ?? "", ($0["languages"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: " "), $0["gender"]?.stringValue ?? ""]
                })
        case "get":
            return reply["value"]?.stringValue ?? ""
        case "set":
            return "\(reply["key"]?.stringValue ?? "") = \(reply["value"]?.stringValue ?? "")"
        case "announce":
            return "announcement \(number(reply["announcement"])): \(reply["decision"]?.stringValue ?? "?")"
        case "speak":
            return reply["utterance"]?.stringValue ?? ""
        case "register":
            return "\(reply["replaced"] == true ? "replaced" : "registered") \(reply["tree"]?.stringValue ?? ""): \(number(reply["stops"])) stops, \(number(reply["nodes"])) nodes"
        case "update":
            return reply["utterance"]?.stringValue ?? ""
        case "unregister":
            return "unregistered \(reply["tree"]?.stringValue ?? "")"
        case "hello":
            return "narratord \(reply["daemon"]?.stringValue ?? "") (protocol \(number(reply["protocol"])))"
        default:
            return ""
        }
    }

    static func delivered(_ reply: JSONObject) -> String {
        "sent \(reply["action"]?.stringValue ?? "") to \(reply["element"]?.stringValue ?? "")"
    }

    /// One line per utterance that starts speaking: "focus  player/rating  rating, 3, adjustable".
    static func monitorLine(_ event: JSONValue) -> String? {
        guard event["event"]?.stringValue == "speech", event["phase"]?.stringValue == "started" else { return nil }
        let kind = event["kind"]?.stringValue ?? "?"
        let tree = event["tree"]?.stringValue
        let element = event["element"]?.stringValue
        let place = tree.map { $0 + (element.map { "/" + $0 } ?? "") } ?? "-"
        return "\(kind)\t\(place)\t\(event["text"]?.stringValue ?? "")"
    }

    static func number(_ value: JSONValue?) -> String {
        value?.numberValue.map(JSONWriter.format) ?? "?"
    }

    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
            }.joined()
        }.joined(separator: "\n")
    }
}
