import NarratorBase
import NarratorModel
import NarratorDBus

/// Text fields as the user types and moves through them: each insertion, deletion, caret move
/// and selection change the application reports is laid on what the bridge holds of the field
/// from the event's own facts (its offset, its length, its text) and sent to narratord at once,
/// one update per event, so that keys typed quickly are never merged into one and none is lost.
/// The key the user pressed tells what a caret move was by, as it tells Orca.
extension ATSPIBridge {
    /// How long a key press explains the caret moves that follow it.
    static let keyLifetime: Duration = .seconds(1)

    /// The last key, while it still explains what moves.
    var recentKey: KeyPress? {
        guard let (key, at) = lastKey, now - at <= Self.keyLifetime else { return nil }
        return key
    }

    /// Text was inserted into (or deleted from) the object at `event.path`.
    mutating func textChanged(_ event: ATSPIEvent, in name: String, inserted: Bool) {
        guard let application = applications[name], let window = application.windowOf[event.path],
            let object = application.windows[window]?.object(at: event.path)
        else {
            // Not mirrored yet: the read on its way brings it.
            applications[name]?.pending = true
            armBatch()
            return
        }
        let scalars = Array((object.text ?? "").unicodeScalars)
        let given = Array((event.text ?? "").unicodeScalars)
        let length = inserted ? given.count : max(event.detail2, given.count)
        // GTK 4 reports an insertion into a text view before it is made: `length` early, and the
        // caret from before it next.
        let early = inserted && application.dialect.reportsTextViewInsertionsEarly && object.states.contains(.multiLine)
        let offset = early ? event.detail1 + length : event.detail1
        applications[name]?.staleCaret = early ? (event.path, offset) : nil
        // An event that does not fit what the bridge holds (GTK 4 reports negative offsets; Qt a
        // wrong deleted text) is not guessed at: the object is read again, and the difference said.
        let fits = offset >= 0 && offset <= scalars.count
            && (inserted ? !given.isEmpty : length > 0 && offset + length <= scalars.count && (given.isEmpty || Array(scalars[offset..<(offset + length)]) == given))
        guard fits else {
            readObject(event.path, in: name)
            return
        }
        // A read changed the text since an event last did, and its answer may have been made
        // after this edit: an insertion it already shows, or any deletion (which it may show as
        // well, and a doubled letter would still fit), is read again rather than taken twice.
        if application.textsFromReads.contains(event.path),
            !inserted || (offset + given.count <= scalars.count && Array(scalars[offset..<(offset + given.count)]) == given)
        {
            readObject(event.path, in: name)
            return
        }
        let range = TextRange(location: offset, length: inserted ? 0 : length)
        let text = inserted ? String(String.UnicodeScalarView(given)) : ""
        var edited = object
        var changed = scalars
        changed.replaceSubrange(range.location..<(range.location + range.length), with: Array(text.unicodeScalars))
        edited.text = changed.isEmpty ? nil : String(String.UnicodeScalarView(changed))
        // The caret ends after what was put in (or where text was taken out), known or not before:
        // the caret move the application sends next is then no move, and says nothing again.
        edited.selection = TextRange(location: range.location + text.unicodeScalars.count, length: 0)
        applications[name]?.carets[event.path] = range.location + text.unicodeScalars.count
        hold(edited, at: event.path, in: name, window: window, text: true)
        let id = WindowID(application: name, path: window)
        guard let decided = mirror.textEdited(id, path: event.path, range: range, text: text) else {
            readObject(event.path, in: name)
            return
        }
        carryOut(quieted(decided, application, name))
    }

    /// The caret of the object at `event.path` moved to `event.detail1`.
    mutating func caretMoved(_ event: ATSPIEvent, in name: String) {
        let stale = applications[name]?.staleCaret
        applications[name]?.staleCaret = nil
        if let stale, stale.path == event.path, stale.offset == event.detail1 { return }
        guard let application = applications[name], let window = application.windowOf[event.path],
            var object = application.windows[window]?.object(at: event.path), event.detail1 >= 0
        else { return }
        applications[name]?.carets[event.path] = event.detail1
        let key = recentKey
        // Shift with a moving key: the selection's change that follows says what it took in. A
        // selection is ended by its own change too (GTK reports one as it goes), never by the
        // caret's move: the caret sits at one of its ends.
        if key?.extendsSelection == true || (object.selection?.length ?? 0) > 0 { return }
        let range = TextRange(location: event.detail1, length: 0)
        guard range.location <= (object.text ?? "").unicodeScalars.count else { return }
        object.selection = range
        hold(object, at: event.path, in: name, window: window, text: false)
        // Tab's caret is where the field was entered, which the focus says: a move to the mirror
        // (its read may have known no caret), not one to say ("blank" after an empty field's name).
        let announce = key?.movesFocus != true
        carryOut(quieted(mirror.caretMoved(WindowID(application: name, path: window), path: event.path, to: range, unit: key?.caretUnit, announce: announce), application, name))
    }

    /// The selection of the object at `path` changed: its extent is asked.
    mutating func selectionChanged(_ path: String, in name: String) {
        guard applications[name]?.windowOf[path] != nil else { return }
        ask(.selection(application: name, path: path), of: name, ATSPIRequest.selection(path).call)
    }

    /// The selection's extent came: a selection says what it took in or gave back; none leaves
    /// the caret where the last caret move put it.
    mutating func selectionRead(_ path: String, in name: String, _ reply: Result<DBusValue, DBusFailure>) {
        guard case .success(let value) = reply, let start = value[0]?.int, let end = value[1]?.int,
            let application = applications[name], let window = application.windowOf[path],
            var object = application.windows[window]?.object(at: path)
        else { return }
        let count = (object.text ?? "").unicodeScalars.count
        let range: TextRange
        if end > start, start >= 0, end <= count {
            range = TextRange(location: start, length: end - start)
        } else if let caret = application.carets[path], caret <= count {
            range = TextRange(location: caret, length: 0)
        } else {
            return
        }
        object.selection = range
        hold(object, at: path, in: name, window: window, text: false)
        carryOut(quieted(mirror.caretMoved(WindowID(application: name, path: window), path: path, to: range, unit: recentKey?.caretUnit, announce: true), application, name))
    }

    /// Keeps `object` as the application's object at `path`: in its window as last read, and
    /// over what the reads now in flight will find, which may predate the event.
    /// `text`: the text changed (else only the caret or selection).
    private mutating func hold(_ object: AccessibleSnapshot, at path: String, in name: String, window: String, text: Bool) {
        guard var application = applications[name], let snapshot = application.windows[window] else { return }
        application.windows[window] = snapshot.replacing(path, with: object)
        if text {
            application.textEdits[path, default: 0] += 1
            application.textsFromReads.remove(path)
        } else {
            application.selectionEdits[path, default: 0] += 1
        }
        // Newer than what any read begun before now finds of it.
        application.readAlone[path] = ReadID(nextRead)
        applications[name] = application
    }
}
