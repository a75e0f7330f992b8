import NarratorBase

/// The keys Narrator takes in the state it is in, as the X server is to keep them from the
/// application: each keycode with the modifier states it is grabbed under. Every key not here
/// reaches the application straight from the X server, never held up by Narrator, which sees it
/// as a raw event beside it.
public struct KeyGrabs: Equatable, Sendable {
    /// The whole keyboard (learn mode: each key is described, none reaches the application).
    public var keyboard: Bool
    /// Per keycode, the X modifier states it is grabbed under.
    public var keys: [UInt8: Set<UInt32>]

    public init(keyboard: Bool = false, keys: [UInt8: Set<UInt32>] = [:]) {
        self.keyboard = keyboard
        self.keys = keys
    }

    /// What to change to go from `old` to these grabs: per keycode, the states to ungrab and to grab.
    public func changes(from old: KeyGrabs) -> (ungrab: [UInt8: Set<UInt32>], grab: [UInt8: Set<UInt32>]) {
        var ungrab: [UInt8: Set<UInt32>] = [:]
        var grab: [UInt8: Set<UInt32>] = [:]
        for (keycode, states) in old.keys {
            let gone = states.subtracting(keys[keycode] ?? [])
            if !gone.isEmpty { ungrab[keycode] = gone }
        }
        for (keycode, states) in keys {
            let new = states.subtracting(old.keys[keycode] ?? [])
            if !new.isEmpty { grab[keycode] = new }
        }
        return (ungrab, grab)
    }
}

extension KeyInterpreter {
    /// The keys the interpreter would take now, where the focus is `context`, on the keyboard
    /// `table`: the same judgement ``handle(_:context:)`` makes, made ahead for every key, since
    /// a grab must be in place before the key goes down.
    ///
    /// - Learn mode takes the whole keyboard.
    /// - Narrator's key is grabbed under every state it gives that key in; while it is held the X
    ///   server gives Narrator every key, so its chords need no grabs of their own. Just after it was tapped
    ///   alone it is not grabbed, so that a second tap reaches the application.
    /// - Every other chord of the keymap is grabbed where it applies: browse mode's keys only on
    ///   a document read in browse mode, Escape only in a page's field.
    public func grabs(on table: KeyboardTable, context: KeyContext, at now: MonotonicInstant) -> KeyGrabs {
        if learning { return KeyGrabs(keyboard: true) }
        let narratorGrabbed = !tapOpen(at: now)
        let browseKeys = browsing && context.inDocument
        let escapeKey = browsing && context.page && context.field
        var keys: [UInt8: Set<UInt32>] = [:]
        for keycode in UInt8.min...UInt8.max {
            for state in 0..<KeyboardTable.states {
                guard let key = table.keysym(keycode, state: state) else { continue }
                if keymap.layout.narratorKeys.contains(key) {
                    // Under every state it is Narrator's key in (KP_Insert is KP_0 with Num Lock).
                    if narratorGrabbed { keys[keycode, default: []].insert(state) }
                    continue
                }
                if key.isModifier { continue }
                let modifiers = KeyModifiers(x: state)
                let take: Bool
                if key == .escape && modifiers.isEmpty && escapeKey {
                    take = true
                } else if let command = keymap.command(for: KeyChord(key.unshifted, modifiers)) {
                    take = !command.browseOnly || browseKeys
                } else {
                    take = false
                }
                if take { keys[keycode, default: []].insert(state) }
            }
        }
        return KeyGrabs(keys: keys)
    }

    /// Narrator's key was just tapped alone: a second tap now is the application's.
    public func tapOpen(at now: MonotonicInstant) -> Bool {
        guard narratorHeld == nil, let tap = lastTap else { return false }
        return now - tap < Self.doublePress
    }

    /// When the window for a second tap closes (nil: none is open); the grabs change then.
    public var tapCloses: MonotonicInstant? {
        guard narratorHeld == nil, let tap = lastTap else { return nil }
        return tap + Self.doublePress
    }
}
