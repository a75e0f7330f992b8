import CNarratorSystem

extension Syscall {
    /// Gives freed heap memory back to the system (malloc_trim(3)). Parsing a large request
    /// leaves megabytes of freed buffers that would otherwise stay in the resident set.
    public static func releaseFreedMemory() {
        _ = narrator_malloc_trim(0)
    }
}
