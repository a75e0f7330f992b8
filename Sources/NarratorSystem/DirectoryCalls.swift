import Glibc

/// Directories: creating a path with its missing parents (`mkdir -p`) and listing one.
extension Syscall {
    /// Creates `path` and every missing directory above it. The last one gets `mode` exactly
    /// (not filtered by the umask) when it is given; the others, and the last without `mode`, get
    /// 0o777 less the umask, as `mkdir -p` makes them. A directory already there is left as it is.
    public static func makeDirectories(_ path: String, mode: mode_t? = nil) throws(Errno) {
        if (try? stat(path))?.isDirectory == true { return }
        let parent = parentDirectory(of: path)
        if !parent.isEmpty, parent != path { try makeDirectories(parent) }
        do throws(Errno) {
            try mkdir(path, mode: mode ?? 0o777)
        } catch where error.code == EEXIST {
            // Made by someone else meanwhile: fine when it is a directory.
            if (try? stat(path))?.isDirectory == true { return }
            throw error
        }
        if let mode { try chmod(path, mode: mode) }
    }

    /// The names in a directory, without "." and "..".
    public static func directoryEntries(_ path: String) throws(Errno) -> [String] {
        guard let directory = opendir(path) else { throw Errno.current("opendir") }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The directory part of `path` ("a/b" for "a/b/c", "/" for "/c", "" for "c"), as
    /// `NSString.deletingLastPathComponent` gives it.
    public static func parentDirectory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        var parent = trimmed[..<slash]
        while parent.count > 1, parent.hasSuffix("/") { parent = parent.dropLast() }
        return String(parent)
    }

    /// The last component of `path` without its extension ("default" for "/p/default.json"), as
    /// `lastPathComponent` then `deletingPathExtension` give it.
    public static func fileStem(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let name = trimmed.lastIndex(of: "/").map { trimmed[trimmed.index(after: $0)...] } ?? trimmed
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return String(name) }
        return String(name[..<dot])
    }
}
