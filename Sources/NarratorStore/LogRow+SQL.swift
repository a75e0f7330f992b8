import NarratorSpeechPlan

/// How a row is written to and read from the `utterances` table.
extension LogRow {
    /// The columns schema 3 already had; version 4 added `connection` and `command` after them.
    private static let columnsOfVersion3 =
        "announcement, utterance, kind, text, priority, tree, element, dedup_key, policy, client_pid, client_uid, client_name, queued_at, started_at, ended_at, outcome, duplicate_of, interrupted_by, experiment"

    static let columns = columnsOfVersion3 + ", connection, command"

    /// The same columns from a file of schema 3 or older, read without migrating it.
    static let columnsBeforeVersion4 = columnsOfVersion3 + ", NULL, NULL"

    static let insertSQL = "INSERT INTO utterances (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

    /// Fills in a live announcement's outcome, found by its announcement id and the instant it was
    /// queued: a daemon that started while the file was unreadable numbers from 1 again, and its
    /// updates must not touch an earlier daemon's rows with the same numbers.
    static let updateSQL =
        "UPDATE utterances SET utterance = ?, policy = ?, started_at = ?, ended_at = ?, outcome = ?, duplicate_of = ?, interrupted_by = ? WHERE announcement = ? AND queued_at = ? AND experiment IS NULL"

    var updateValues: [SQLValue] {
        [
            .optional(utterance), .optional(policy), .optional(startedAt), .optional(endedAt), .text(outcome.rawValue), .optional(duplicateOf),
            .optional(interruptedBy?.rawValue), .optional(announcement), .real(queuedAt),
        ]
    }

    var values: [SQLValue] {
        [
            .optional(announcement), .optional(utterance), .text(kind.rawValue), .text(text), .optional(priority), .optional(tree),
            .optional(element), .optional(dedupKey), .optional(policy), .optional(clientPID), .optional(clientUID),
            .optional(clientName), .real(queuedAt), .optional(startedAt), .optional(endedAt), .text(outcome.rawValue),
            .optional(duplicateOf), .optional(interruptedBy?.rawValue), .optional(experiment), .optional(connection), .optional(command),
        ]
    }

    /// Reads a row selected as `id, <columns>`.
    static func read(_ s: Statement) -> (id: Int64, row: LogRow) {
        (
            s.int64(0),
            LogRow(
                announcement: s.optionalInt64(1), utterance: s.optionalInt64(2), kind: LogRow.Kind(rawValue: s.string(3) ?? ""), text: s.string(4) ?? "",
                priority: s.string(5), tree: s.string(6), element: s.string(7), dedupKey: s.string(8), policy: s.string(9),
                clientPID: s.optionalInt64(10), clientUID: s.optionalInt64(11), clientName: s.string(12), queuedAt: s.double(13),
                startedAt: s.optionalDouble(14), endedAt: s.optionalDouble(15), outcome: LogRow.Outcome(rawValue: s.string(16) ?? ""),
                duplicateOf: s.optionalInt64(17), interruptedBy: s.string(18).map(LogRow.Interruption.init(rawValue:)), experiment: s.string(19),
                connection: s.optionalInt64(20), command: s.string(21))
        )
    }
}
