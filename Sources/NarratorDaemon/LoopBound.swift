import NarratorSystem

/// Carries an object owned by the event loop across threads, so that another thread (speech)
/// can post work for it with `EventLoop.execute`. Only the loop thread may open it, which is
/// what makes the unchecked `Sendable` sound: the object is never touched anywhere else.
struct LoopBound<Value: AnyObject>: @unchecked Sendable {
    private let value: Value
    let loop: EventLoop

    init(_ value: Value, loop: EventLoop) {
        self.value = value
        self.loop = loop
    }

    func open() -> Value {
        precondition(loop.isLoopThread, "a loop-owned object was used off the loop thread")
        return value
    }
}
