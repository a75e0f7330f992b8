import NarratorDBus
/// Reading applications: the desktop's list, a whole application, one object, one row of a long
/// list; and laying each read's result over what the mirror holds.
extension ATSPIBridge {
    /// Asks the registry for the desktop's applications: new ones are read, gone ones' trees go.
    mutating func rescan() {
        ask(.desktop, of: Self.registry, ATSPIRequest.children(ATSPIApplicationRead.root).call)
    }

    mutating func answered(_ question: BridgeQuestion, _ reply: Result<DBusValue, DBusFailure>) {
        switch question {
        case .desktop:
            let value: DBusValue
            switch reply {
            case .success(let answer): value = answer
            case .failure(let failure):
                journal("the registry did not list the desktop's applications: \(failure)")
                return
            }
            let present = Set((value[0]?.items ?? []).compactMap { $0[0]?.string })
            // One given up stays so while it is on the bus; one that left is forgotten.
            givenUp.formIntersection(present)
            for name in present.sorted() where applications[name] == nil && !givenUp.contains(name) {
                var arrived = BridgeApplication()
                arrived.arrived = true
                applications[name] = arrived
                read(name)
            }
            for name in Set(applications.keys).subtracting(present).sorted() { forget(name) }
        case .read(let id, let request):
            // A read of an application forgotten meanwhile is answered into nothing. The read is
            // changed where it is held (a copy taken out would copy its 10,000 objects at each answer).
            guard let application = reads[id]?.application else { return }
            let next = reads[id]?.read.take(request, reply) ?? []
            for request in next { ask(.read(id, request), of: application, request.call) }
            // Not answered in time: the read is given up whole, and what waits of it with it.
            if case .failure(let failure) = reply, failure == .timedOut || failure == .gone {
                for withdrawn in withdraw(read: id, of: application) { _ = reads[id]?.read.take(withdrawn, .failure(failure)) }
            }
            if reads[id]?.read.isComplete == true, let read = reads.removeValue(forKey: id) {
                completed(id, read)
            }
        case .selectedRow(let application, let list):
            guard case .success(let value) = reply, let row = value[0]?.objectPath, row != ATSPIApplicationRead.null else { return }
            ask(.rowIndex(application: application, row: row, list: list), of: application,
                DBusCall(path: row, interface: "org.a11y.atspi.Accessible", method: "GetIndexInParent"))
        case .rowIndex(let application, let row, let list):
            guard case .success(let index) = reply else { return }
            readActiveDescendant(row, at: index[0]?.int ?? 0, of: list, in: application)
        case .selection(let application, let path):
            selectionRead(path, in: application, reply)
        case .act(let window, let what):
            switch reply {
            case .success(let value):
                if value[0]?.unwrapped == .bool(false) { journal("\(window.application) refused to \(what)") }
            case .failure(let failure):
                journal("could not \(what) in \(window.application): \(failure)")
                // No answer in time: the application may be hung. Reading it finds out, and
                // brings the rules for a hung one (said once, tried again until it answers).
                if failure == .timedOut { read(window.application) }
            }
        }
    }

    private mutating func newReadID() -> ReadID {
        defer { nextRead += 1 }
        return ReadID(nextRead)
    }

    /// Starts `read` as `id` and sends its first questions.
    private mutating func start(_ id: ReadID, _ read: ATSPIApplicationRead, _ purpose: BridgeRead.Purpose, of application: String) {
        var read = read
        let requests = read.start()
        for request in requests { ask(.read(id, request), of: application, request.call) }
        let started = BridgeRead(application: application, purpose: purpose, read: read, textEditsAtStart: applications[application]?.textEdits ?? [:],
            selectionEditsAtStart: applications[application]?.selectionEdits ?? [:])
        if read.isComplete {
            completed(id, started)
        } else {
            reads[id] = started
        }
    }

    private mutating func completed(_ id: ReadID, _ read: BridgeRead) {
        switch read.purpose {
        case .whole:
            if case .read = read.read.outcome {
                applications[read.application]?.dialect = read.read.dialect
                // What it left unread replaces what was left before (which it read again).
                applications[read.application]?.unread = read.read.unreadChildren.map { .init(parent: $0.parent, children: $0.children) }
                applications[read.application]?.fillRead = nil
            }
            // A read that went no further than the name still names the application in the journal.
            if applications[read.application]?.name.isEmpty == true, let title = read.read.applicationName, !title.isEmpty {
                applications[read.application]?.name = title
            }
            finished(read.application, id, read.read.outcome, onlyErrors: read.read.answeredOnlyErrors)
            if read.read.cutAtDepth, applications[read.application]?.saidCut == false {
                applications[read.application]?.saidCut = true
                let name = applications[read.application]?.name ?? ""
                journal("\(name.isEmpty ? read.application : "\(name) (\(read.application))") has objects deeper than \(read.read.maximumDepth) levels; what is deeper is not read")
            }
            fillNext(read.application)
        case .fill(let parent): filled(id, parent, read)
        case .object(let path): objectRead(id, path, in: read.application, read.read.outcome, since: (read.textEditsAtStart[path], read.selectionEditsAtStart[path]))
        case .part(let path): partRead(id, path, read)
        case .added(let parent, let index): childRead(id, added: parent, at: index, read)
        case .activeRow(let row, let index, let list): activeRowRead(row, at: index, of: list, in: read.application, read.read.outcome)
        }
    }

    /// Reads the application `name` now (or once the read in flight ends) and tells narratord what changed.
    mutating func read(_ name: String) {
        guard applications[name] != nil else { return }
        applications[name]?.pending = false
        // The whole read covers the parts that changed.
        applications[name]?.changedParts = []
        applications[name]?.changedChildren = []
        if applications[name]?.wholeRead != nil {
            applications[name]?.again = true
            return
        }
        let id = newReadID()
        applications[name]?.wholeRead = id
        var whole = ATSPIApplicationRead()
        whole.childrenAtOnce = configuration.childrenAtOnce
        start(id, whole, .whole, of: name)
    }

    private mutating func finished(_ name: String, _ id: ReadID, _ outcome: ATSPIApplicationRead.Outcome, onlyErrors: Bool) {
        guard var application = applications[name] else { return }
        application.wholeRead = nil
        application.erroredReads = onlyErrors ? application.erroredReads + 1 : 0
        switch outcome {
        case .gone:
            forget(name)
        case .hostile where onlyErrors && application.erroredReads < Self.erroredReadsBeforeGivingUp:
            // Not ready yet, or hostile: read again on the retry timer, and given up if it goes on.
            applications[name] = application
            armRetry()
        case .hostile(let reason):
            giveUp(name, reason)
        case .unresponsive:
            if !application.unresponsive {
                let who = application.name.isEmpty ? name : application.name
                journal("\(who) (\(name)) did not answer within \(configuration.questionTimeout.milliseconds) ms; its windows stay as last read, and it is tried again every \(configuration.retryDelay.milliseconds / 1000) s")
            }
            application.unresponsive = true
            applications[name] = application
            armRetry()
        case .read(let title, let windows):
            if application.unresponsive { journal("\(title) (\(name)) answers again") }
            // An application may have activated its window before it could be read: one that just
            // started, before it was on the registry's list (GTK 4 does; a slow start does), or one
            // that ran before the bridge did (the window the user is in when Narrator starts, whose
            // focus Narrator's keys need). Its first read enters the window it finds active, unless
            // an activation waits.
            let lostActivation = application.arrived && application.windows.isEmpty
                ? windows.first { $0.states.contains(.active) && !application.waiting.contains(.activate(window: $0.path)) }?.path : nil
            application.arrived = false
            application.unresponsive = false
            application.name = title
            var decided: [ATSPIMirror.Effect] = []
            var present: [String: AccessibleSnapshot] = [:]
            for found in windows where !found.states.contains(.defunct) {
                var window = found.grafting(application.grafts)
                // Objects read alone (or changed by events) since this read began are newer than what it found.
                if let held = application.windows[window.path] {
                    window = keepingNewer(window, than: id, in: application, held: held)
                    window = window.keepingUnread(application.unread, from: held)
                    application.noteTexts(readAs: window, over: held)
                }
                present[window.path] = window
                decided += mirrored(window.path, window, of: name, application)
            }
            // Objects read alone before it began are no newer than what it found.
            application.readAlone = application.readAlone.filter { $0.value > id }
            for path in application.windows.keys.sorted() where present[path] == nil {
                decided += mirror.windowGone(WindowID(application: name, path: path))
            }
            application.windows = present
            application.activeDescendants = application.activeDescendants.filter { list, _ in present.values.contains { $0.contains(path: list) } }
            application.windowOf = [:]
            for window in present.values { application.index(window) }
            application.textsFromReads = application.textsFromReads.filter { application.windowOf[$0] != nil }
            let again = application.again
            application.again = false
            applications[name] = application
            carryOut(decided)
            settleWaiting(name, moreComing: again || application.filling)
            if let lostActivation, applications[name]?.windows[lostActivation] != nil {
                applications[name]?.enteredOnRead = lostActivation
                activated(WindowID(application: name, path: lostActivation))
            }
            if again { read(name) }
        }
    }

    /// `window` read as `snapshot`, into the mirror. A focus move waited for this read: what
    /// changed where the focus was (a tab no longer selected) is not said on the way out
    /// (``quieted(_:_:_:)``); and where the read takes away the element Narrator's
    /// focus is on, the focus is handed over to where the move goes (a select's list closing
    /// onto the select) rather than repaired to a stop the user never went to.
    mutating func mirrored(_ window: String, _ snapshot: AccessibleSnapshot, of name: String, _ application: BridgeApplication) -> [ATSPIMirror.Effect] {
        // A focus that waits to land where Narrator's focus already is (a page's document
        // focused again as it loads) moves nowhere: what changes there is said.
        var moving: String?
        for case .focus(let path) in application.waiting.reversed() where !mirror.hasFocus(application: name, path: path) {
            moving = path
            break
        }
        let decided = mirror.windowRead(
            WindowID(application: name, path: window), application: application.name, snapshot: snapshot, dialect: application.dialect,
            focusGoingTo: moving.flatMap { snapshot.contains(path: $0) ? $0 : nil })
        return moving == nil ? decided : Self.silenced(decided)
    }

    /// A focus move waited for this read: what changed where the focus was (a tab no longer
    /// selected) is not said on the way out.
    func quieted(_ decided: [ATSPIMirror.Effect], _ application: BridgeApplication, _ name: String) -> [ATSPIMirror.Effect] {
        // A focus that waits to land where Narrator's focus already is (a page's document
        // focused again as it loads) moves nowhere: what changes there is said.
        let moving = application.waiting.contains { wait in
            if case .focus(let path) = wait { return !mirror.hasFocus(application: name, path: path) }
            return false
        }
        return moving ? Self.silenced(decided) : decided
    }

    /// The updates among `decided` sent unannounced.
    static func silenced(_ decided: [ATSPIMirror.Effect]) -> [ATSPIMirror.Effect] {
        decided.map { effect in
            if case .update(let tree, let update, _) = effect { return .update(tree: tree, update, announce: false) }
            return effect
        }
    }

    /// Carries out the focus moves and activations that waited for reads, once none is in
    /// flight: each once its object is known, else dropped unless a newer read is coming.
    mutating func settleWaiting(_ name: String, moreComing: Bool) {
        guard let application = applications[name], application.wholeRead == nil, application.objectReads.isEmpty else { return }
        let waits = application.waiting
        applications[name]?.waiting = []
        var kept: [BridgeApplication.Waiting] = []
        for wait in waits {
            switch wait {
            case .focus(let path):
                if let window = applications[name]?.windowOf[path] {
                    carryOut(mirror.focusMoved(WindowID(application: name, path: window), path: path))
                } else if moreComing {
                    kept.append(wait)
                }
            case .activate(let window):
                if applications[name]?.windows[window] != nil {
                    activated(WindowID(application: name, path: window))
                } else if moreComing {
                    kept.append(wait)
                }
            }
        }
        applications[name]?.waiting += kept
    }

    /// One object's own facts changed: it alone is read again, at once, and patched into the
    /// mirror, rather than the whole application after the batch delay, so that Space on a check
    /// box is said as soon as the application reports it.
    mutating func readObject(_ path: String, in name: String) {
        let id = newReadID()
        applications[name]?.objectReads.insert(id)
        start(id, ATSPIApplicationRead(object: path), .object(path: path), of: name)
    }

    private mutating func objectRead(_ id: ReadID, _ path: String, in name: String, _ outcome: ATSPIApplicationRead.Outcome, since: (text: Int?, selection: Int?)) {
        guard var application = applications[name] else { return }
        application.objectReads.remove(id)
        switch outcome {
        case .gone:
            forget(name)
            return
        case .hostile(let reason):
            giveUp(name, reason)
            return
        case .unresponsive:
            // The whole application is read again (and given up on, and retried) as usual.
            applications[name] = application
            read(name)
            return
        case .read(_, let objects):
            if var object = objects.first, let window = application.windowOf[path], let snapshot = application.windows[window] {
                // Its text (or caret) changed by events since the read began: the read's is older.
                if let held = snapshot.object(at: path) {
                    if application.textEdits[path] != since.text {
                        object.text = held.text
                        object.selection = held.selection
                    } else if application.selectionEdits[path] != since.selection {
                        object.selection = held.selection
                    }
                }
                // A row of a list that manages its descendants keeps what it now says across
                // reads, and its place in the list, which only its first read asked.
                for (list, rows) in application.activeDescendants {
                    guard let index = rows.firstIndex(where: { $0.row.path == path }) else { continue }
                    object.position = rows[index].row.position
                    var kept = object
                    kept.children = rows[index].row.children
                    application.activeDescendants[list]?[index].row = kept
                }
                let patched = snapshot.replacing(path, with: object)
                if let held = snapshot.object(at: path), held.text != object.text { application.textsFromReads.insert(path) }
                application.windows[window] = patched
                // Newer than what any read begun before now finds of it, however it answers.
                application.readAlone[path] = ReadID(nextRead)
                application.unmirrored.insert(window)
                applications[name] = application
            } else {
                applications[name] = application
            }
        }
        mirrorUnmirrored(of: name)
        settleWaiting(name, moreComing: false)
    }

    /// Tells narratord of the windows reads of one object or part changed, once the last of the
    /// application's reads of that kind in flight is in, or at once when a focus waits on the
    /// mirror: each telling compares the whole window with what narratord holds, which on a long
    /// page (10,000 objects) takes the core some 100 ms, and a burst of ten such reads after one
    /// move held the next key up for as long.
    mutating func mirrorUnmirrored(of name: String) {
        guard let application = applications[name], application.objectReads.isEmpty || !application.waiting.isEmpty else { return }
        mirrorNow(name)
    }

    /// Tells narratord of every window of `name` read but not told yet.
    mutating func mirrorNow(_ name: String) {
        guard let application = applications[name], !application.unmirrored.isEmpty else { return }
        applications[name]?.unmirrored = []
        for window in application.unmirrored.sorted() {
            guard let current = applications[name], let snapshot = current.windows[window] else { continue }
            carryOut(mirrored(window, snapshot, of: name, current))
        }
    }

    /// The parts of `name` whose children changed, each read again with what is under it; an
    /// object under another changed one is read with that one. Too many parts, and the whole
    /// application is read instead.
    mutating func readChangedParts(of name: String) {
        guard let application = applications[name] else { return }
        applications[name]?.changedParts = []
        applications[name]?.changedChildren = []
        let changed = application.changedParts.filter { application.windowOf[$0] != nil }
        var under: Set<String> = []
        for path in changed where !under.contains(path) {
            if let part = application.object(path) { under.formUnion(part.paths.subtracting([path])) }
        }
        let parts = changed.subtracting(under).sorted()
        // A child added or removed where a part is read again comes with that read.
        let readAgain = changed.union(under)
        let children = application.changedChildren.filter { !readAgain.contains($0.parent) && application.windowOf[$0.parent] != nil }
        guard parts.count + children.count <= configuration.changedPartsRead else {
            read(name)
            return
        }
        for change in children {
            switch change {
            case .removed(let parent, let child): childRemoved(child, from: parent, in: name)
            case .added(let parent, let child, let index):
                let id = newReadID()
                applications[name]?.childReads.insert(id)
                var read = ATSPIApplicationRead(subtree: child)
                read.childrenAtOnce = configuration.childrenAtOnce
                start(id, read, .added(parent: parent, index: index), of: name)
            }
        }
        if !children.isEmpty { mirrorWhenQuiet(name) }
        for path in parts {
            let id = newReadID()
            applications[name]?.objectReads.insert(id)
            var part = ATSPIApplicationRead(subtree: path)
            part.childrenAtOnce = configuration.childrenAtOnce
            start(id, part, .part(path: path), of: name)
        }
    }

    /// A changed part was read: it takes the place of what was mirrored under its object, each
    /// text in it changed by events since the read began keeping what the events made of it.
    private mutating func partRead(_ id: ReadID, _ path: String, _ read: BridgeRead) {
        let name = read.application
        guard applications[name] != nil else { return }
        applications[name]?.objectReads.remove(id)
        guard let objects = objects(readBy: read), var application = applications[name] else { return }
        if var part = objects.first, let window = application.windowOf[path], let snapshot = application.windows[window] {
            if let held = snapshot.object(at: path) {
                for edited in part.paths where application.textEdits[edited] != read.textEditsAtStart[edited]
                    || application.selectionEdits[edited] != read.selectionEditsAtStart[edited] {
                    guard var object = part.object(at: edited), let kept = held.object(at: edited) else { continue }
                    object.text = kept.text
                    object.selection = kept.selection
                    part = part.replacing(edited, with: object)
                }
            }
            part = keepingNewer(part, than: id, in: application, held: snapshot)
            let unread = read.read.unreadChildren.map { BridgeApplication.UnreadChildren(parent: $0.parent, children: $0.children) }
            part = part.keepingUnread(unread, from: snapshot)
            // What was left unread under the part was read again with it, or left again.
            let within = part.paths
            application.unread.removeAll { within.contains($0.parent) }
            application.unread += unread
            let patched = snapshot.replacingSubtree(path, with: part).grafting(application.grafts)
            if let held = snapshot.object(at: path) { application.noteTexts(readAs: part, over: held) }
            application.windows[window] = patched
            application.windowOf = application.windowOf.filter { $0.value != window }
            application.index(patched)
            // A whole read begun meanwhile may have found the part as it was: it is done again.
            if application.wholeRead != nil { application.again = true }
            application.unmirrored.insert(window)
            applications[name] = application
        }
        mirrorUnmirrored(of: name)
        settleWaiting(name, moreComing: applications[name]?.filling ?? false)
        fillNext(name)
    }

    /// What a read of part of an application brought; nil when the application left, turned
    /// out hostile or did not answer, each dealt with here (an application that did not answer
    /// is read whole again).
    private mutating func objects(readBy read: BridgeRead) -> [AccessibleSnapshot]? {
        switch read.read.outcome {
        case .gone:
            forget(read.application)
        case .hostile(let reason):
            giveUp(read.application, reason)
        case .unresponsive:
            self.read(read.application)
        case .read(_, let objects):
            return objects
        }
        return nil
    }

    /// A child a page took out of `parent`: it leaves the mirror with what is under it, no read needed.
    private mutating func childRemoved(_ child: String, from parent: String, in name: String) {
        guard var application = applications[name], let window = application.windowOf[parent], let snapshot = application.windows[window],
            var held = snapshot.object(at: parent), let index = held.children.firstIndex(where: { $0.path == child })
        else { return }
        let gone = held.children.remove(at: index).paths
        let patched = snapshot.replacingSubtree(parent, with: held)
        application.windows[window] = patched
        for path in gone { application.windowOf[path] = nil }
        application.unread.removeAll { gone.contains($0.parent) }
        application.unmirrored.insert(window)
        applications[name] = application
    }

    /// A child a page added to `parent` was read: it joins the parent's children at the index its
    /// event gave (at the end, if the mirror holds fewer), in the place of one of its path held.
    private mutating func childRead(_ id: ReadID, added parent: String, at index: Int, _ read: BridgeRead) {
        let name = read.application
        guard applications[name] != nil else { return }
        applications[name]?.childReads.remove(id)
        guard let objects = objects(readBy: read), var application = applications[name] else { return }
        // (None when it went again before it was read: nothing to add.)
        if let child = objects.first?.grafting(application.grafts), let window = application.windowOf[parent],
            let snapshot = application.windows[window], var held = snapshot.object(at: parent) {
            if let at = held.children.firstIndex(where: { $0.path == child.path }) {
                held.children[at] = child
            } else {
                held.children.insert(child, at: min(index, held.children.count))
            }
            let patched = snapshot.replacingSubtree(parent, with: held)
            application.windows[window] = patched
            application.index(child, in: window)
            application.unread += read.read.unreadChildren.map { .init(parent: $0.parent, children: $0.children) }
            // A whole read begun meanwhile may have found the parent as it was: it is done again.
            if application.wholeRead != nil { application.again = true }
            application.unmirrored.insert(window)
            applications[name] = application
        }
        mirrorWhenQuiet(name)
        settleWaiting(name, moreComing: applications[name]?.filling ?? false)
        fillNext(name)
    }

    /// `part` as read by `id`, with each object in it that a read of it alone brought since `id`
    /// began (a heading named once the page loaded), or an event changed since, as held: answers
    /// come in any order.
    private func keepingNewer(_ part: AccessibleSnapshot, than id: ReadID, in application: BridgeApplication, held snapshot: AccessibleSnapshot) -> AccessibleSnapshot {
        var part = part
        for path in part.paths {
            guard let alone = application.readAlone[path], alone > id, let newer = snapshot.object(at: path) else { continue }
            part = part.replacing(path, with: newer)
        }
        return part
    }

    /// Reads the next children left unread (at most ``Configuration/fillChunk`` of one parent),
    /// unless such a read is in flight: one at a time, so that the application's other reads
    /// (a focus move's) go between them.
    mutating func fillNext(_ name: String) {
        guard let application = applications[name], application.fillRead == nil, let first = application.unread.first else { return }
        let chunk = Array(first.children.prefix(configuration.fillChunk))
        if first.children.count > chunk.count {
            applications[name]?.unread[0].children.removeFirst(chunk.count)
        } else {
            applications[name]?.unread.removeFirst()
        }
        let id = newReadID()
        applications[name]?.fillRead = id
        var read = ATSPIApplicationRead(subtrees: chunk)
        read.childrenAtOnce = configuration.childrenAtOnce
        start(id, read, .fill(parent: first.parent), of: name)
    }

    /// Children left unread were read: they join their parent's children in the mirror, after
    /// those read before them, and the focus moves waiting for them are carried out.
    private mutating func filled(_ id: ReadID, _ parent: String, _ read: BridgeRead) {
        let name = read.application
        // A whole read since has read them again (or found them gone): this one is stale.
        guard applications[name]?.fillRead == id else { return }
        applications[name]?.fillRead = nil
        guard let objects = objects(readBy: read), var application = applications[name] else { return }
        let unread = read.read.unreadChildren.map { BridgeApplication.UnreadChildren(parent: $0.parent, children: $0.children) }
        application.unread += unread
        if let window = application.windowOf[parent], let snapshot = application.windows[window], var held = snapshot.object(at: parent) {
            for object in objects {
                let read = keepingNewer(object.grafting(application.grafts), than: id, in: application, held: snapshot).keepingUnread(unread, from: snapshot)
                // One held from before a read of its parent again (kept until read) is replaced where it is.
                if let at = held.children.firstIndex(where: { $0.path == read.path }) {
                    held.children[at] = read
                } else {
                    held.children.append(read)
                }
            }
            let patched = snapshot.replacingSubtree(parent, with: held)
            application.windows[window] = patched
            application.index(patched)
            application.unmirrored.insert(window)
        }
        applications[name] = application
        // Each telling compares the whole window with narratord's (some 100 ms on a page of
        // 10,000 objects): the rest is told once it is all in, or at once when a focus waits.
        let filling = applications[name]?.filling ?? false
        if !filling || applications[name]?.waiting.isEmpty == false { mirrorNow(name) }
        // A focus move waiting for an object the reading of the rest did not bring (it came
        // after the read began) is found by reading the application again.
        settleWaiting(name, moreComing: true)
        if !filling, applications[name]?.waiting.isEmpty == false { self.read(name) }
        fillNext(name)
    }

    /// A list that manages its descendants made `row` (at `index` in it) active: the row alone
    /// is read, joins the list's children in the mirror, and takes Narrator's focus.
    mutating func readActiveDescendant(_ row: String, at index: Int, of list: String, in name: String) {
        guard applications[name] != nil else { return }
        start(newReadID(), ATSPIApplicationRead(row: row, index: index, of: list), .activeRow(row: row, index: index, list: list), of: name)
    }

    private mutating func activeRowRead(_ row: String, at index: Int, of list: String, in name: String, _ outcome: ATSPIApplicationRead.Outcome) {
        guard case .read(_, let objects) = outcome, let active = objects.first, var application = applications[name],
            let window = application.windowOf[list], let snapshot = application.windows[window]
        else { return }
        var rows = (application.activeDescendants[list] ?? []).filter { $0.row.path != row }
        rows.append(.init(index: index, row: active))
        rows = Array(rows.sorted { abs($0.index - index) < abs($1.index - index) }.prefix(configuration.rowsKept)).sorted { $0.index < $1.index }
        application.activeDescendants[list] = rows
        let grafted = snapshot.grafting(application.grafts)
        application.windows[window] = grafted
        application.index(grafted)
        applications[name] = application
        let id = WindowID(application: name, path: window)
        carryOut(mirror.windowRead(id, application: application.name, snapshot: grafted, dialect: application.dialect))
        carryOut(mirror.focusMoved(id, path: row))
    }

    /// The row a list that manages its descendants has selected, read as its active one (the
    /// list itself took the focus; moving in it then says each row as it becomes active).
    mutating func readSelectedRow(of list: String, in name: String) {
        ask(.selectedRow(application: name, list: list), of: name,
            DBusCall(path: list, interface: "org.a11y.atspi.Selection", method: "GetSelectedChild", arguments: [.int32(0)]))
    }

    /// The application left the bus (or the bus went): its reads are dropped and its trees go.
    mutating func forget(_ name: String) {
        applications.removeValue(forKey: name)
        dropQuestions(of: name)
        reads = reads.filter { $0.value.application != name }
        carryOut(mirror.applicationGone(name))
    }

    /// The application `name` gave a tree no toolkit builds (`reason`): said once, its windows
    /// taken away, and neither it nor its events are heeded again while it is on the bus. What
    /// it holds of the bridge is then nothing, and what it asks of the bridge's time is its
    /// events' arrival alone.
    mutating func giveUp(_ name: String, _ reason: String) {
        let who = applications[name].map { $0.name.isEmpty ? name : "\($0.name) (\(name))" } ?? name
        forget(name)
        guard givenUp.insert(name).inserted else { return }
        journal("\(who) is given up: \(reason); its windows are taken away and it is not read again while it is on the bus")
    }
}
