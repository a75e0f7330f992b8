/// Versions reported by `narratord --version` and the `hello` command.
public enum NarratorVersion {
    /// The release of the daemon and the CLI.
    public static let daemon = "0.1.0"
    /// The version of the socket protocol (newline-delimited JSON), reported by `hello`.
    public static let protocolVersion = 1
    /// The version of the tree document format that this build reads.
    public static let treeFormat = 1
}
