import Glibc

/// Standard error without Foundation's `FileHandle`: one write(2) per message, so lines from
/// different threads do not interleave (journald reads a line per write).
public enum StandardError {
    /// Writes `text` as it is; a closed or full stderr is ignored, as there is nowhere to say so.
    public static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            try? Syscall.writeAll(2, UnsafeRawBufferPointer(bytes))
        }
    }
}
