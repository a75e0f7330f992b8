/// Where a command writes: standard output and standard error, injected so tests can capture them.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void
    /// Reads all of standard input (for `-` file arguments).
    public var readStandardInput: @Sendable () -> [UInt8]

    public init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
        readStandardInput: @escaping @Sendable () -> [UInt8]
    ) {
        self.out = out
        self.err = err
        self.readStandardInput = readStandardInput
    }
}
