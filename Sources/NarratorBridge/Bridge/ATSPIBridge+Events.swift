/// The desktop's events: what each means for the application it came from.
extension ATSPIBridge {
    mutating func take(_ event: ATSPIEvent) {
        let name = event.application
        let path = event.path
        // The registry reports applications coming and going as the desktop's children. Its
        // events arrive under its unique name, which no application has: a change in the children
        // of a root no known application owns is the desktop's (asking the object's role to tell
        // would be a call that can wait).
        if name == Self.registry || (event.type.hasPrefix("object:children-changed") && path == ATSPIApplicationRead.root && applications[name] == nil) {
            rescan()
            return
        }
        // A hostile application's events are not heeded: each would have it read again.
        if givenUp.contains(name) { return }
        let isNew = applications[name] == nil
        if isNew {
            // An application not seen yet (it started since the last scan): read at once.
            applications[name] = BridgeApplication()
            read(name)
        }
        guard let application = applications[name] else { return }
        let current = application.isCurrent
        switch event.kind {
        case .focus(let gained):
            guard gained else { return }
            // The application's focus is on one object: an earlier focus still waiting for its
            // read (a page's blank document, focused as the page replaced it) is gone by now.
            applications[name]?.waiting.removeAll { if case .focus = $0 { true } else { false } }
            // X's focus bounce at a grab: Firefox focuses a panel of its own that no window holds,
            // then gives the focus back to the element the page had focused, ahead of the move
            // Narrator asked for (a field browse mode's cursor went over, a link left behind).
            // Within the echo, only the focus Narrator gave is the application's; heeded, the
            // panel had the browser and its 10,000 objects read again at every key, and the
            // element given back was said over the one arrived at.
            if grabEcho, !(application.windowOf[path].map { mirror.awaitsFocus(WindowID(application: name, path: $0), path: path) } ?? false) { return }
            // What changed with the focus (a state, a new page) is read first, so the stop exists.
            if current, let window = application.windowOf[path] {
                let states = application.windows[window]?.object(at: path)?.states ?? []
                if states.contains(.editable) {
                    // A field is read before it is said: GTK selects its text as it takes the
                    // focus, after the focus event, and the focus says "selected".
                    applications[name]?.waiting.append(.focus(path: path))
                    readObject(path, in: name)
                    return
                }
                carryOut(mirror.focusMoved(WindowID(application: name, path: window), path: path))
                // A list that manages its rows takes the focus itself: its selected row is the one the user is on.
                if states.contains(.managesDescendants) { readSelectedRow(of: path, in: name) }
            } else {
                applications[name]?.waiting.append(.focus(path: path))
                // A read begun for this very event already sees the object; one begun before may
                // not. While a long page's rest is read, that reading brings it.
                if !isNew, !application.filling { read(name) }
            }
        case .activeDescendant:
            if let row = event.object { readActiveDescendant(row, at: event.detail1, of: path, in: name) }
        case .windowActivated:
            // A key Narrator grabbed tells the focused window it lost the focus and got it back
            // (X's NotifyGrab and NotifyUngrab): the window already active, activated again, is
            // that echo, not the user's return to it.
            if grabEcho, mirror.focusedWindow == WindowID(application: name, path: path) { return }
            if application.enteredOnRead != nil {
                applications[name]?.enteredOnRead = nil
                if application.enteredOnRead == path { return }
            }
            if current, application.windows[path] != nil {
                activated(WindowID(application: name, path: path))
            } else {
                applications[name]?.waiting.append(.activate(window: path))
                if !isNew { read(name) }
            }
        case .textInserted, .textDeleted:
            textChanged(event, in: name, inserted: event.kind == .textInserted)
        case .caretMoved:
            caretMoved(event, in: name)
        case .selectionChanged:
            selectionChanged(path, in: name)
        case .objectChanged where application.windowOf[path] != nil && application.wholeRead == nil:
            readObject(path, in: name)
        case .structure where application.dialect == .gecko && event.changesChildren && application.windowOf[path] != nil && application.wholeRead == nil:
            // A web page changed under one of its objects: only that part is read again, once the
            // batch fires, not a browser of 10,000 objects. (A GTK application is read whole from
            // its cache in two round trips, about what one part costs.)
            if let change = childChange(event, in: application) {
                applications[name]?.changedChildren.append(change)
            } else {
                applications[name]?.changedParts.insert(path)
            }
            armBatch()
        case .objectChanged, .structure:
            applications[name]?.pending = true
            armBatch()
        }
    }

    /// The child a `children-changed` event names, added or removed, when that child alone can
    /// be read or taken out: not while the object's own children are still being read in parts
    /// (where the index falls among them is not known yet).
    func childChange(_ event: ATSPIEvent, in application: BridgeApplication) -> BridgeApplication.ChildChange? {
        guard let child = event.object, child != ATSPIApplicationRead.null, child != event.path,
            !application.unread.contains(where: { $0.parent == event.path }),
            application.fillRead.flatMap({ reads[$0]?.purpose }) != .fill(parent: event.path)
        else { return nil }
        if event.type.hasPrefix("object:children-changed:add") { return .added(parent: event.path, child: child, index: max(0, event.detail1)) }
        if event.type.hasPrefix("object:children-changed:remove") { return .removed(parent: event.path, child: child) }
        return nil
    }
}
