import NarratorBase
import NarratorModel
import NarratorProtocol
import NarratorSpeechPlan

/// The user's speech settings: a `set` is checked, written to the settings file by the daemon,
/// and takes effect (and is answered) once the file is written, or is refused when the write
/// fails or has not finished within ``Session/settingsWriteBound``.
extension Session {
    /// How long a `set` waits for its settings file to be written before it is refused. A few
    /// hundred bytes take milliseconds to write: a write this late means a stuck disk.
    public static let settingsWriteBound: Duration = .seconds(5)

    /// Checks a setting and has it saved; it takes effect (and `client` gets its reply) once the
    /// file is written. Without a client (the daemon's own change), failures go to the journal.
    mutating func changeSetting(_ key: String, to value: String, replyingTo client: ClientID?, id: JSONValue?) throws(ReplyError) {
        var changed = settingsWrites.newest ?? speech.settings
        do {
            try changed.set(key, to: value, installed: configuration.catalog, engines: configuration.engines)
        } catch {
            guard client != nil else {
                journal(.error, "\(key): \(error)")
                return
            }
            throw ReplyError(.invalidSetting, "\(error)")
        }
        write(changed, key: key, answering: client, id: id)
        // What the connection sends next waits for this answer.
        if let client { holds.order.outstanding(client) }
    }

    /// The `changeSetting` input: the daemon's own change (its configuration read again).
    mutating func changeOwnSetting(_ key: String, to value: String) {
        // Without a client to answer, a refused value is journaled, not thrown.
        try? changeSetting(key, to: value, replyingTo: nil, id: nil)
    }

    mutating func settingsSaved(_ ticket: Ticket, _ result: Result<Void, SpeechSettingsError>) {
        guard let waiting = settingsWrites.waiting.removeValue(forKey: ticket) else {
            lateSettingsWrite(ticket, result)
            return
        }
        switch result {
        case .success:
            let before = Set(speech.settings.chosenEngines(among: configuration.engines))
            let idleBefore = speech.settings.engineIdle
            speech.use(waiting.settings, catalog: configuration.catalog)
            let settings = speech.settings
            workspace.verbosity = settings.verbosity
            if settings.engineIdle != idleBefore { batch.emit(.engineIdle(settings.engineIdle)) }
            for engine in settings.chosenEngines(among: configuration.engines) where !before.contains(engine) {
                batch.emit(.warmUp(engine: engine))
            }
            // Later writes come back later: the file now holds the settings in force.
            settingsWrites.rewriteWhenSettled = false
            follow(plan.configure(settings.schedulerConfiguration, at: batch.now))
            if let key = waiting.key {
                let value = (try? settings.get(key)) ?? ""
                if let client = waiting.client {
                    send(client, Reply(id: waiting.id, .success(.setting(key: key, value: value))))
                } else {
                    journal(.notice, "\(key) = \(value)")
                }
            } else {
                journal(.notice, "the settings file holds the settings in force again")
            }
        case .failure(let error):
            if let client = waiting.client {
                send(client, Reply(id: waiting.id, .failure(ReplyError(.invalidSetting, "\(error)"))))
            } else {
                journal(.error, "\(waiting.key ?? "writing the settings in force again"): \(error)")
            }
        }
        answered(waiting)
    }

    /// The timer: refuses every `set` whose write has taken longer than the bound. Its result may
    /// still come (``settingsSaved(_:_:)`` sees it as late).
    mutating func expireSettingsWrites() {
        for (ticket, waiting) in settingsWrites.waiting.sorted(by: { $0.key < $1.key }) where waiting.deadline <= batch.now {
            settingsWrites.waiting[ticket] = nil
            settingsWrites.abandoned.insert(ticket)
            let what = waiting.key ?? "writing the settings in force again"
            let message =
                "\(what): the settings file was not written within \(Self.settingsWriteBound.components.seconds) s (its disk does not answer); the setting was not changed"
            if let client = waiting.client {
                send(client, Reply(id: waiting.id, .failure(ReplyError(.invalidSetting, message))))
            } else {
                journal(.error, message)
            }
            answered(waiting)
        }
    }

    /// Asks for `settings` to be written; `key`'s `set` (from `client`, or the daemon's own) waits for it.
    private mutating func write(_ settings: SpeechSettings, key: String?, answering client: ClientID?, id: JSONValue?) {
        let ticket = newTicket()
        settingsWrites.waiting[ticket] = SettingsWrites.Waiting(
            client: client, id: id, key: key, settings: settings, deadline: batch.now + Self.settingsWriteBound)
        batch.emit(.saveSettings(settings, ticket))
    }

    /// A write given up on came back after all.
    private mutating func lateSettingsWrite(_ ticket: Ticket, _ result: Result<Void, SpeechSettingsError>) {
        guard settingsWrites.abandoned.remove(ticket) != nil else { return }
        if case .success = result {
            journal(.warning, "the settings file was written late, after its change was refused; the settings in force are written again")
            settingsWrites.rewriteWhenSettled = true
        }
        settle()
    }

    /// A write's `set` was answered: what its connection sent after it goes on now, and what
    /// waits for every write, once none does.
    private mutating func answered(_ waiting: SettingsWrites.Waiting) {
        if let client = waiting.client {
            // A `set` or a line to prepare among them holds the rest again.
            release(client)
        }
        settle()
    }

    private mutating func settle() {
        guard settingsWrites.waiting.isEmpty else { return }
        if settingsWrites.rewriteWhenSettled {
            settingsWrites.rewriteWhenSettled = false
            write(speech.settings, key: nil, answering: nil, id: nil)
        } else if settingsWrites.shutDownWhenSettled {
            settingsWrites.shutDownWhenSettled = false
            batch.emit(.shutDown)
        }
    }
}
