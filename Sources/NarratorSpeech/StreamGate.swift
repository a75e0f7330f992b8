import Glibc

/// Who may use pcaudiolib's audio object at once: its calls that use the stream (write, drain,
/// flush) share it, and those that replace or free the stream (open, close, destroy) take it alone.
///
/// `pa_simple` serializes its writes, drains and flushes on its mainloop lock, and a flush must reach
/// a write blocked in the server, so those may overlap. `pa_simple_free` takes no lock at all: run
/// beside any other call on the same stream it frees the mainloop's mutex under the waiting call and
/// the stream under its reference, and libpulse aborts (`pa_mutex_free`, `pa_stream_unref`, seen in
/// `make test`, reproduced by `PulseStressTests.deviceCallsRacingItsClose`). A read-write lock: the
/// sharing calls are readers; glibc's default prefers readers, so a flush is never held up behind a
/// close waiting for a blocked write. (``PulseOutput`` still runs its flushes one at a time.)
final class StreamGate: Sendable {
    /// Allocated once and never moved, as a pthread lock must be; freed in `deinit`.
    private nonisolated(unsafe) let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` beside other sharing calls, never beside an exclusive one.
    func sharing<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body` alone: after the calls in flight have returned, before any other starts.
    func exclusive<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
