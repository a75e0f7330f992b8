import NarratorBase
import NarratorSSIP
import NarratorSpeechPlan

/// Routing to the SSIP server (``SSIPServer``): its inputs go to it, and what it asks for is
/// carried out here, where the plan's steps are followed for every front end at once.
extension Session {
    /// Carries out what the SSIP server asked for, in order.
    mutating func carryOut(_ requests: [SSIPServer.Effect]) {
        for request in requests {
            switch request {
            case .send(let client, let output): emit(.sendSSIP(client, output))
            case .close(let client): emit(.close(client))
            case .warmUp(let engine): emit(.warmUp(engine: engine))
            case .journal(let level, let message): journal(level, message)
            case .log(let row): emit(.appendLog(row, nil))
            case .command(let command, let client): logCommand(command, from: client)
            case .speak(let message, let priority, let echo):
                // The message goes with its utterance: the step may already play it, in this message's voice.
                follow(plan.say(message, .ssip(priority), language: message.settings.speechLanguage, echo: echo, at: batch.now).1)
            case .cancelAll:
                follow(plan.cancel(.cancelled, at: batch.now) { Self.isSSIP($0) })
            case .cancel(let client):
                follow(plan.cancel(.cancelled, at: batch.now) { $0.client == client && Self.isSSIP($0) })
                carryOut(ssip.cancelHeld(of: client, at: batch.now))
            case .stopAll:
                follow(plan.stopPlaying(at: batch.now) { Self.isSSIP($0) })
            case .stop(let client):
                follow(plan.stopPlaying(at: batch.now) { $0.client == client && Self.isSSIP($0) })
            case .pause(let client):
                follow(plan.cancel(.paused, at: batch.now) { $0.client == client && Self.isSSIP($0) })
            }
        }
    }

    private static func isSSIP(_ request: UtteranceRequest) -> Bool {
        if case .ssip = request.kind { return true }
        return false
    }
}
