import NarratorBase

/// Decides, for each key event, whether Narrator takes the key and what it asks for: Narrator's
/// key held as a modifier (and let through when pressed twice quickly), learn mode, a chord
/// pressed twice, browse mode's single-letter keys only where they make sense. Pure: the shell
/// feeds it events with their time and gives the application the keys it does not take.
public struct KeyInterpreter: Sendable {
    public var keymap: Keymap
    /// Learn mode: every key is described, not acted on, until Escape.
    public private(set) var learning = false
    /// Browse mode on documents (the default) or focus mode, where keys go to the page.
    public private(set) var browsing = true

    /// The Narrator key held now, whether it was taken (a second quick press is not), and
    /// whether Caps Lock was locked before it went down.
    private(set) var narratorHeld: (key: Keysym, taken: Bool, locked: Bool)?
    /// When the Narrator key was last tapped alone: a second tap soon after passes through.
    private(set) var lastTap: MonotonicInstant?
    /// A chord was made with the Narrator key held: its release is no tap.
    private var chordWhileHeld = false
    /// Keys whose press Narrator took: their release is taken too.
    private var taken: Set<Keysym> = []
    /// The last chord that ran a command, and when: the same again soon is a double press.
    private var lastChord: (chord: KeyChord, at: MonotonicInstant)?

    /// Two presses closer than this are one double press (Orca's default is 0.5 s).
    public static let doublePress: Duration = .milliseconds(500)

    public init(keymap: Keymap) { self.keymap = keymap }

    /// `context` is asked only for a key whose meaning depends on where the focus is (browse
    /// mode's keys, Escape, Narrator+A): finding out walks the page, and the application waits
    /// for every key's answer.
    public mutating func handle(_ event: KeyEvent, context: @autoclosure () -> KeyContext) -> KeyVerdict {
        switch event.kind {
        case .press: press(event, context: context)
        case .release: release(event)
        }
    }

    private mutating func press(_ event: KeyEvent, context: () -> KeyContext) -> KeyVerdict {
        let key = event.key
        if keymap.layout.narratorKeys.contains(key) { return narratorPressed(key, locked: event.xModifiers & 2 != 0, at: event.at) }
        var modifiers = KeyModifiers(x: event.xModifiers)
        // A Narrator key let through (the second of two taps) is the application's, not a modifier.
        if let held = narratorHeld, held.taken {
            modifiers.insert(.narrator)
            chordWhileHeld = true
        }
        // A letter's case says nothing: Caps Lock makes h `H` without Shift. Shift's bit says it.
        let chord = KeyChord(key.unshifted, modifiers)
        lastTap = nil
        if learning {
            taken.insert(key.unshifted)
            if key.isModifier { return .taken }
            if key == .escape && modifiers.isEmpty {
                learning = false
                return KeyVerdict(take: true, [.learnModeEnded])
            }
            return KeyVerdict(take: true, [.describe(chord, keymap.command(for: chord))])
        }
        if key.isControl && modifiers.subtracting(.control).isEmpty { return KeyVerdict(take: false, [.stopSpeech]) }
        if key == .escape && modifiers.isEmpty && browsing {
            let here = context()
            if here.page && here.field {
                // Out of the field the application put the focus in, back to reading the page.
                taken.insert(key)
                return KeyVerdict(take: true, [.browseMode(true)])
            }
        }
        guard !key.isModifier, let command = keymap.command(for: chord) else { return .pass }
        if command.browseOnly && !(browsing && context().inDocument) { return .pass }
        taken.insert(key.unshifted)
        let presses: Int
        if let last = lastChord, last.chord == chord, event.at - last.at < Self.doublePress {
            presses = 2
            lastChord = nil
        } else {
            presses = 1
            lastChord = (chord, event.at)
        }
        switch command {
        case .learnMode:
            learning = true
            return KeyVerdict(take: true, [.learnModeStarted])
        case .browseMode:
            // Focus mode as the user hears it: chosen, or a field the application focused.
            let reading = browsing && context().inDocument
            browsing = !reading
            return KeyVerdict(take: true, [.browseMode(browsing)])
        default:
            return KeyVerdict(take: true, [.run(command, presses: presses)])
        }
    }

    private mutating func narratorPressed(_ key: Keysym, locked: Bool, at now: MonotonicInstant) -> KeyVerdict {
        // X repeats a held key's press: the key is still held, not pressed again.
        if let held = narratorHeld, held.key == key { return KeyVerdict(take: held.taken) }
        if let tap = lastTap, now - tap < Self.doublePress, !learning {
            // The second of two quick taps is the key's own: Insert for the application, or
            // Caps Lock's toggle.
            lastTap = nil
            narratorHeld = (key, false, locked)
            return .pass
        }
        narratorHeld = (key, true, locked)
        // Taken: its release is too, even if the other Narrator key goes down before it comes up.
        taken.insert(key)
        chordWhileHeld = false
        lastTap = now
        return .taken
    }

    private mutating func release(_ event: KeyEvent) -> KeyVerdict {
        let key = event.key
        if let held = narratorHeld, held.key == key {
            narratorHeld = nil
            taken.remove(key)
            if chordWhileHeld { lastTap = nil }
            guard held.taken else { return .pass }
            // X toggles Caps Lock on its press whoever takes it; Narrator's use of it changes nothing.
            return key == .capsLock ? KeyVerdict(take: true, [.restoreCapsLock(on: held.locked)]) : .taken
        }
        return taken.remove(key.unshifted) != nil ? .taken : .pass
    }
}
