import Glibc

/// Standard output without Foundation's `FileHandle`, for the programs that link no Foundation
/// (narrator-atspi): one write(2) per message, as ``StandardError``.
public enum StandardOutput {
    /// Writes `text` as it is; a closed or full stdout is ignored, as there is nowhere to say so.
    public static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            try? Syscall.writeAll(1, UnsafeRawBufferPointer(bytes))
        }
    }
}
