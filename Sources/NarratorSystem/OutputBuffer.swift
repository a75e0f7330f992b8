import Glibc

/// Bytes queued for one client and not yet accepted by the kernel. The event loop bounds its
/// size per client, so that a client that stops reading costs a fixed amount of memory.
struct OutputBuffer {
    private var storage: [UInt8] = []
    private var head = 0

    var count: Int { storage.count - head }
    var isEmpty: Bool { count == 0 }

    mutating func append(_ bytes: some Sequence<UInt8>) {
        storage.append(contentsOf: bytes)
    }

    /// Writes as much as the socket takes without blocking. Returns true when everything was
    /// written, false when the socket is full (wait for POLLOUT); throws on a real error.
    mutating func flush(to fd: Int32) throws(Errno) -> Bool {
        while head < storage.count {
            // Array.withUnsafeBytes only rethrows untyped errors, so the outcome travels as a Result.
            let outcome = storage.withUnsafeBytes { all in
                Result { () throws(Errno) -> Int in
                    try Syscall.send(fd, UnsafeRawBufferPointer(rebasing: all[head...]), nonBlocking: true)
                }
            }
            switch outcome {
            case .success(let written):
                head += written
            case .failure(let error) where error.isWouldBlock:
                compact()
                return false
            case .failure(let error):
                throw error
            }
        }
        storage.removeAll(keepingCapacity: storage.capacity <= 1 << 16)
        head = 0
        return true
    }

    /// Everything queued, removed (what a peer without a socket reads: ``InMemoryLoop``).
    mutating func takeAll() -> [UInt8] {
        defer { removeAll() }
        return Array(storage[head...])
    }

    mutating func removeAll() {
        storage.removeAll()
        head = 0
    }

    /// Drops already-written bytes once they dominate the storage, keeping appends amortised O(1).
    private mutating func compact() {
        if head > 4096 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
    }
}
