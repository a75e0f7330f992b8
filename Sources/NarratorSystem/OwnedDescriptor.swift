/// A file descriptor with one owner the compiler knows of: it is closed when the value goes
/// away, unless `take()` hands the number to its next owner or `close()` closes it first.
/// Noncopyable, so that a descriptor passed from one owner to another (an accepted connection to
/// the loop, a pipe's end to a child process) cannot be closed twice or forgotten on an error path.
public struct OwnedDescriptor: ~Copyable, Sendable {
    /// The descriptor's number, for system calls that borrow it.
    public let rawValue: Int32

    /// Takes ownership of `rawValue`, which must be open and owned by nobody else.
    public init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Gives up ownership without closing: whoever receives the number closes it.
    public consuming func take() -> Int32 {
        let fd = rawValue
        discard self
        return fd
    }

    /// Closes it now, for a caller that wants to know whether close(2) failed.
    public consuming func close() throws(Errno) {
        let fd = rawValue
        discard self
        try Syscall.close(fd)
    }

    deinit {
        try? Syscall.close(rawValue)
    }
}

/// The two ends of a pipe, each closed with the value unless taken. Frozen, so that callers in
/// other modules may take one end and let the other go (partial consumption).
@frozen
public struct PipeEnds: ~Copyable, Sendable {
    public var read: OwnedDescriptor
    public var write: OwnedDescriptor
}
