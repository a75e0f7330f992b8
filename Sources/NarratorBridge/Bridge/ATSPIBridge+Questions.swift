import NarratorDBus
/// How many questions each application has in flight. A web page of 10,000 objects is tens of
/// thousands of questions; sent at once, the last would wait in the application's queue longer
/// than any bound, and a busy browser would look hung. So at most
/// ``ATSPIBridge/Configuration/questionsInFlight`` are in flight to one application at a time,
/// the rest wait here in order, and each question's bound measures that application's answer,
/// not the queue. A read that does not answer in time is given up whole, its waiting questions
/// with it, so that a hung application costs one bound, not one per question.
struct QuestionWindow: Sendable {
    var inFlight = 0
    var waiting: [(question: BridgeQuestion, call: DBusCall)] = []
    var next = 0

    var hasWaiting: Bool { next < waiting.count }

    /// Takes `item` in flight if there is room under `limit` (true: send it now), else queues it.
    mutating func admit(_ item: (question: BridgeQuestion, call: DBusCall), limit: Int) -> Bool {
        if inFlight < limit {
            inFlight += 1
            return true
        }
        waiting.append(item)
        return false
    }

    mutating func takeNext() -> (question: BridgeQuestion, call: DBusCall)? {
        guard next < waiting.count else { return nil }
        defer {
            next += 1
            // Drop what was sent once it is most of the array, so that the queue stays small.
            if next > 1024, next * 2 > waiting.count {
                waiting.removeFirst(next)
                next = 0
            }
        }
        return waiting[next]
    }
}

extension ATSPIBridge {
    // The windows are changed where they are held: a copy taken out of the dictionary would copy
    // its waiting questions (tens of thousands for a web page) at every question.
    mutating func ask(_ question: BridgeQuestion, of application: String, _ call: DBusCall) {
        if questionWindows[application, default: QuestionWindow()].admit((question, call), limit: configuration.questionsInFlight) {
            send(question, to: application, call)
        }
    }

    /// An answer came (or its bound passed): its place in the window is free for the next.
    mutating func answerArrived(_ question: BridgeQuestion) {
        guard var sent = destinations[question], !sent.isEmpty else { return }
        let application = sent.removeFirst()
        destinations[question] = sent.isEmpty ? nil : sent
        guard var window = questionWindows.removeValue(forKey: application) else { return }
        // Taken out while it changes (and put back unless empty), so that it is not copied.
        window.inFlight -= 1
        var freed: [(question: BridgeQuestion, call: DBusCall)] = []
        while window.inFlight < configuration.questionsInFlight, let next = window.takeNext() {
            window.inFlight += 1
            freed.append(next)
        }
        if window.inFlight > 0 || window.hasWaiting { questionWindows[application] = window }
        for (question, call) in freed { send(question, to: application, call) }
    }

    private mutating func send(_ question: BridgeQuestion, to application: String, _ call: DBusCall) {
        destinations[question, default: []].append(application)
        effects.append(.ask(question, application: application, call, timeout: configuration.questionTimeout))
    }

    /// The questions of read `id` still waiting to be sent, taken out of the window (the read was
    /// given up): they are answered `.timedOut` by the caller.
    mutating func withdraw(read id: ReadID, of application: String) -> [ATSPIRequest] {
        guard var window = questionWindows[application] else { return [] }
        var withdrawn: [ATSPIRequest] = []
        var kept: [(question: BridgeQuestion, call: DBusCall)] = []
        for item in window.waiting[window.next...] {
            if case .read(id, let request) = item.question { withdrawn.append(request) } else { kept.append(item) }
        }
        window.waiting = kept
        window.next = 0
        questionWindows[application] = window
        return withdrawn
    }

    /// The application left: what waits for it is dropped.
    mutating func dropQuestions(of application: String) {
        questionWindows[application] = nil
        destinations = destinations.compactMapValues { sent in
            let left = sent.filter { $0 != application }
            return left.isEmpty ? nil : left
        }
    }
}
