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
            for name in present.sorted() where applications[name] == nil {
                applications[name] = BridgeApplication()
                read(name)
            }
            for name in Set(applications.keys).subtracting(present).sorted() { forget(name) }
        case .read(let id, let request):
            // A read of an application forgotten meanwhile is answered into nothing.
            guard var read = reads[id] else { return }
            let next = read.read.take(request, reply)
            for request in next { ask(.read(id, request), of: read.application, request.call) }
            // Not answered in time: the read is given up whole, and what waits of it with it.
            if case .failure(let failure) = reply, failure == .timedOut || failure == .gone {
                for withdrawn in withdraw(read: id, of: read.application) { _ = read.read.take(withdrawn, .failure(failure)) }
            }
            if read.read.isComplete {
                reads[id] = nil
                completed(id, read)
            } else {
                reads[id] = read
            }
        case .selectedRow(let application, let list):
            guard case .success(let value) = reply, let row = value[0]?.objectPath, row != "/org/a11y/atspi/null" else { return }
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
            if case .read = read.read.outcome { applications[read.application]?.dialect = read.read.dialect }
            finished(read.application, read.read.outcome)
        case .object(let path): objectRead(id, path, in: read.application, read.read.outcome, since: (read.textEditsAtStart[path], read.selectionEditsAtStart[path]))
        case .activeRow(let row, let index, let list): activeRowRead(row, at: index, of: list, in: read.application, read.read.outcome)
        }
    }

    /// Reads the application `name` now (or once the read in flight ends) and tells narratord what changed.
    mutating func read(_ name: String) {
        guard applications[name] != nil else { return }
        applications[name]?.pending = false
        if applications[name]?.wholeRead != nil {
            applications[name]?.again = true
            return
        }
        let id = newReadID()
        applications[name]?.wholeRead = id
        start(id, ATSPIApplicationRead(), .whole, of: name)
    }

    private mutating func finished(_ name: String, _ outcome: ATSPIApplicationRead.Outcome) {
        guard var application = applications[name] else { return }
        application.wholeRead = nil
        switch outcome {
        case .gone:
            forget(name)
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
            application.unresponsive = false
            application.name = title
            var decided: [ATSPIMirror.Effect] = []
            var present: [String: AccessibleSnapshot] = [:]
            for found in windows where !found.states.contains(.defunct) {
                var window = found.grafting(application.grafts)
                // Objects read alone while this read was in flight are newer than what it found.
                for (path, object) in application.freshObjects { window = window.replacing(path, with: object) }
                present[window.path] = window
                decided += quieted(mirror.windowRead(WindowID(application: name, path: window.path), application: title, snapshot: window, dialect: application.dialect), application)
            }
            application.freshObjects = [:]
            for path in application.windows.keys.sorted() where present[path] == nil {
                decided += mirror.windowGone(WindowID(application: name, path: path))
            }
            application.windows = present
            application.activeDescendants = application.activeDescendants.filter { list, _ in present.values.contains { $0.contains(path: list) } }
            application.windowOf = [:]
            for window in present.values { application.index(window) }
            let again = application.again
            application.again = false
            applications[name] = application
            carryOut(decided)
            settleWaiting(name, moreComing: again)
            if again { read(name) }
        }
    }

    /// A focus move waited for this read: what changed where the focus was (a tab no longer
    /// selected) is not said on the way out.
    func quieted(_ decided: [ATSPIMirror.Effect], _ application: BridgeApplication) -> [ATSPIMirror.Effect] {
        guard application.focusWaits else { return decided }
        return decided.map { effect in
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
                application.windows[window] = patched
                if application.wholeRead != nil { application.freshObjects[path] = object }
                applications[name] = application
                carryOut(quieted(mirror.windowRead(WindowID(application: name, path: window), application: application.name, snapshot: patched, dialect: application.dialect), application))
            } else {
                applications[name] = application
            }
        }
        settleWaiting(name, moreComing: false)
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
}

extension Duration {
    /// Whole milliseconds, for the journal.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }
}
