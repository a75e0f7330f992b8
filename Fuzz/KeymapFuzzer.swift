import NarratorBase
import NarratorKeyboard

/// Fuzzes keymap files and the key events read with them: the input is a keymap's text, then,
/// after a NUL byte, key events (three bytes each: press or release, a keysym from a small set,
/// X's modifier bits).
///
/// Invariants: nothing crashes; reading is deterministic; every refused line is named by a line
/// number within the file, in order; a chord of the keymap read back from its own spelling is the
/// same chord; every release of a key whose press was taken is taken; a key Narrator never binds
/// (a media key, which a keymap cannot name) is never taken outside learn mode.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let text = String(decoding: bytes[..<split], as: UTF8.self)
    let first = Keymap.reading(text)
    let second = Keymap.reading(text)
    require(first.keymap == second.keymap && first.problems == second.problems, "reading the same keymap twice differs")
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
    require(first.problems.map(\.line) == first.problems.map(\.line).sorted(), "refused lines out of order: \(first.problems)")
    for problem in first.problems { require(problem.line >= 1 && problem.line <= lines, "\(problem) is outside the file's \(lines) lines") }
    for (chord, _) in first.keymap.sorted {
        let again = Result { () throws(KeymapProblem) in try KeyChord(parsing: chord.description) }
        require(again == .success(chord), "\(chord) reads back as \(again)")
    }
    let keys: [UInt32] = [0x68, 0x48, 0x74, 0x31, 0x21, 0xFF63, 0xFF9E, 0xFFE5, 0xFF1B, 0xFFE3, 0xFF54, 0xFF8D, 0x1008FF11, 0x61]
    var interpreter = KeyInterpreter(keymap: first.keymap)
    var now = MonotonicInstant(nanoseconds: 1)
    var takenPresses: Set<UInt32> = []
    var rest = bytes[split...].dropFirst()
    while rest.count >= 3 {
        let kind: KeyEvent.Kind = rest[rest.startIndex] & 1 == 0 ? .press : .release
        let key = keys[Int(rest[rest.startIndex + 1]) % keys.count]
        let modifiers = UInt32(rest[rest.startIndex + 2] & 0x1F)
        rest = rest.dropFirst(3)
        now = now + .milliseconds(Int64(modifiers) * 37)
        let page = modifiers & 16 != 0
        let verdict = interpreter.handle(KeyEvent(kind, Keysym(key), xModifiers: modifiers, at: now), context: KeyContext(page: page, field: modifiers & 2 != 0))
        let unshifted = Keysym(key).unshifted.rawValue
        switch kind {
        case .press:
            if verdict.take { takenPresses.insert(unshifted) }
            if key == 0x1008FF11, !interpreter.learning { require(!verdict.take, "a key no keymap can name was taken outside learn mode") }
        case .release:
            let pressedTaken = takenPresses.remove(unshifted) != nil
            if pressedTaken { require(verdict.take, "the release of a taken \(Keysym(key)) went to the application") }
        }
    }
    return 0
}
