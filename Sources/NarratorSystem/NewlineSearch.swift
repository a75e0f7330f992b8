import Glibc

/// Where the first newline in `bytes` is, by `memchr`: lines here can be megabyte tree documents
/// and exports, and a byte-by-byte scan of them cost more than parsing them.
func firstNewline(in bytes: UnsafeRawBufferPointer) -> Int? {
    guard let base = bytes.baseAddress, let found = memchr(base, Int32(UInt8(ascii: "\n")), bytes.count) else { return nil }
    return base.distance(to: UnsafeRawPointer(found))
}
