import CSQLite

/// The log's schema, as an ordered list of migrations; the database's `PRAGMA user_version` is
/// the number of migrations applied. Never edit a shipped migration: append a new one.
public enum Schema {
    public static let migrations: [String] = [
        // 1: the utterance log and the experiments that replayed rows belong to.
        """
        CREATE TABLE utterances (
            id INTEGER PRIMARY KEY,
            announcement INTEGER,
            utterance INTEGER,
            kind TEXT NOT NULL,
            text TEXT NOT NULL,
            priority TEXT,
            tree TEXT,
            element TEXT,
            dedup_key TEXT,
            policy TEXT,
            client_pid INTEGER,
            client_uid INTEGER,
            client_name TEXT,
            queued_at REAL NOT NULL,
            started_at REAL,
            ended_at REAL,
            outcome TEXT NOT NULL,
            duplicate_of INTEGER,
            interrupted_by TEXT,
            experiment TEXT
        );
        CREATE INDEX utterances_queued ON utterances(queued_at);
        CREATE INDEX utterances_experiment ON utterances(experiment, policy);
        CREATE TABLE experiments (
            id TEXT PRIMARY KEY,
            created_at REAL NOT NULL,
            trace TEXT NOT NULL,
            policies TEXT NOT NULL
        );
        """,
        // 2: `narratorctl log --outcome` and `stats` group by outcome.
        "CREATE INDEX utterances_outcome ON utterances(outcome, queued_at);",
        // 3: narratord inserts an announcement's row when it is queued and updates it with its outcome.
        "CREATE INDEX utterances_live_announcement ON utterances(announcement) WHERE experiment IS NULL;",
        // 4: what a trace exported from the log needs to replay it as it ran: the connection a row
        // came from (SSIP rate limits and in-flight judging are per connection) and the command that
        // asked for it (SSIP SPEAK, CHAR, KEY, SOUND_ICON; CANCEL and STOP rows of kind `command`);
        // and an experiment's record (version, policies, trace hashes, voice, results) as JSON.
        """
        ALTER TABLE utterances ADD COLUMN connection INTEGER;
        ALTER TABLE utterances ADD COLUMN command TEXT;
        ALTER TABLE experiments ADD COLUMN record TEXT;
        """,
    ]

    public static var version: Int { migrations.count }

    /// Brings `database` to the current schema version, one transaction per migration.
    /// - Throws: a ``DatabaseError`` when a migration fails or the file comes from a newer Narrator.
    public static func migrate(_ database: Database) throws(DatabaseError) {
        let current = try userVersion(database)
        guard current <= migrations.count else {
            throw DatabaseError(
                extendedCode: SQLITE_ERROR,
                message: "schema version \(current) is newer than this Narrator knows (\(migrations.count)); upgrade Narrator or use another --db",
                context: "open \(database.path)")
        }
        for index in current..<migrations.count {
            try database.transaction { () throws(DatabaseError) in
                try database.execute(migrations[index])
                try database.execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }

    public static func userVersion(_ database: Database) throws(DatabaseError) -> Int {
        Int(try database.query("PRAGMA user_version") { $0.int64(0) }.first ?? 0)
    }
}
