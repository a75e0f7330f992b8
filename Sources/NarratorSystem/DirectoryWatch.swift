import Glibc

extension Syscall {
    /// inotify_init1(2), close-on-exec.
    public static func inotifyInit() throws(Errno) -> Int32 {
        try retryingInterrupts("inotify_init1") { inotify_init1(Int32(IN_CLOEXEC)) }
    }

    /// inotify_add_watch(2).
    public static func inotifyAddWatch(_ fd: Int32, _ path: String, mask: UInt32) throws(Errno) -> Int32 {
        try retryingInterrupts("inotify_add_watch") { inotify_add_watch(fd, path, mask) }
    }
}

/// Names created, moved in or removed in one directory, read with inotify. A thread blocked in
/// `next` costs no wake-up until something changes (a poll on `stat` would wake an idle daemon).
/// It owns its descriptor; the thread that waits on it owns the watch, for the process's life.
public final class DirectoryWatch: @unchecked Sendable {
    public let directory: String
    private let fd: Int32

    public init(_ directory: String) throws(Errno) {
        self.directory = directory
        fd = try Syscall.inotifyInit()
        do {
            _ = try Syscall.inotifyAddWatch(fd, directory, mask: UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM))
        } catch {
            try? Syscall.close(fd)
            throw error
        }
    }

    deinit {
        try? Syscall.close(fd)
    }

    /// Waits for the next changes and returns the names they touched (in order, repeats kept).
    public func next() throws(Errno) -> [String] {
        // Room for many events at once: each is a header and a name of up to NAME_MAX + 1 bytes.
        let size = 16 * (MemoryLayout<inotify_event>.size + Int(NAME_MAX) + 1)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        let count = try Syscall.read(fd, into: buffer)
        var names: [String] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let length = Int(buffer.load(fromByteOffset: offset + MemoryLayout<Int32>.size * 3, as: UInt32.self))
            let start = offset + header
            let end = min(start + length, count)
            // The name is padded with NULs to its length.
            let bytes = buffer[start..<end].prefix { $0 != 0 }
            if !bytes.isEmpty { names.append(String(decoding: bytes, as: UTF8.self)) }
            offset = start + length
        }
        return names
    }
}
