import NarratorEngines
import NarratorSSIP
import NarratorSpeechPlan

/// Speech: asking the plan to say something, and carrying its steps out (the user's settings are
/// in `Session+Settings`).
extension Session {
    /// Asks for speech that is not an announcement, in `language`, else the tree's.
    @discardableResult
    mutating func say(_ text: String, _ kind: SpeechKind, tree: String?, element: String?, language: String? = nil) -> UtteranceID {
        let language = language ?? tree.flatMap { workspace.trees[$0]?.language }
        let (id, step) = plan.say(text, kind, tree: tree, element: element, language: language, at: batch.now)
        follow(step)
        return id
    }

    /// The language of the tree that has focus: what `announce` (without a tree) and `speak` are
    /// read in when the request names no language, since they most likely speak about what the
    /// user is in.
    var focusedLanguage: String? {
        workspace.focus.flatMap { workspace.trees[$0.tree]?.language }
    }

    /// Turns a plan step into effects: speech commands first, events to subscribers, and a log
    /// row for each life that ended. What starts waits for the batch's end (``SessionBatch``); a
    /// stop of what has not been handed out yet takes it back instead. `appended` is an
    /// announcement whose row is being appended with its outcome already, so it gets no update.
    mutating func follow(_ step: PlanStep<SSIPMessage>, appended: AnnouncementID? = nil) {
        for command in step.commands {
            switch command {
            case .play(let request, let message):
                // In the voice and prosody of the moment it starts, as the plan's events say it did.
                batch.play(speech.playRequest(for: request, ssip: message, configuration: configuration))
            case .stop(let id):
                batch.stop(id)
            }
        }
        if !step.notices.isEmpty {
            let subscribers = clients.subscribers
            for planned in step.notices {
                var notice = planned.notice
                if case .started = notice.phase, !configuration.otherEngines.isEmpty {
                    notice.engine = batch.engine(of: notice.utterance)
                }
                if case .finished = notice.phase, speech.wentUnheard(notice.utterance) { notice.inaudible = true }
                for subscriber in subscribers { send(subscriber, .speech(notice)) }
                if case .ssip = notice.kind, let message = planned.message { carryOut(ssip.notice(notice, message, at: batch.now)) }
            }
        }
        for var record in step.announcements where record.announcement.id != appended {
            if let utterance = record.utterance { record.outcome = speech.outcome(of: utterance, record.outcome) }
            batch.emit(.updateLog(LogRow(record, seconds: seconds)))
        }
        for var record in step.speech {
            record.outcome = speech.outcome(of: record.utterance, record.outcome)
            batch.emit(.appendLog(step.endedMessages[record.utterance].map { ssip.row(record, $0) } ?? LogRow(record, seconds: seconds), nil))
        }
    }

    /// An engine's health changed: said once in the journal, and shown by `status`.
    mutating func engineChanged(_ engine: EngineName, _ health: EngineHealth) {
        if let (level, message) = speech.engineChanged(engine, health) { journal(level, message) }
    }

    mutating func outputChanged(_ status: OutputStatus) {
        if let (level, message) = speech.outputChanged(status, playing: plan.scheduler.playing?.id) { journal(level, message) }
    }
}
