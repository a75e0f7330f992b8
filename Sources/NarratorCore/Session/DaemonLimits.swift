import NarratorModel

/// What one client may ask of the daemon, so that no client can exhaust it for the others.
/// Each limit is an option (and a configuration key) with the default documented here.
public struct DaemonLimits: Equatable, Sendable {
    /// Tree depth, nodes per tree and string lengths in tree documents and updates
    /// (defaults 256 levels, 2,000,000 nodes, 4096 characters).
    public var document = DocumentLimits.default
    /// Trees one connection may own at once (default 64).
    public var treesPerClient = 64
    /// Characters in an `announce` or `speak` text (default 2000: about two minutes of speech).
    public var textLength = 2000
    /// Announcements one connection may have waiting at once (default 4), so that a flooding
    /// client cannot push everyone else's out of the shared queue.
    public var queuedPerClient = 4
    /// Bytes in one SSIP message (a SPEAK's data), which Speech Dispatcher's clients send
    /// without a length limit of their own (default 16 MiB, `--max-message`).
    public var ssipMessageBytes = 16 << 20

    public init() {}
}
