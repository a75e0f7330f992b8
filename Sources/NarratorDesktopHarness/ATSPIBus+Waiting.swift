import Glibc
import NarratorATSPI
import NarratorBridge
import NarratorDBus

/// Blocking ways to ask the accessibility bus, for the tests and the benchmarks only: they wait
/// on the bus's connection for one reply, which the bridge never does.
extension ATSPIBus {
    /// `call`, waiting for its reply (over the bus, whatever the application's route): the
    /// benchmarks' one-property baseline, and a call that waits among calls that do not.
    public func sendAndWait(_ call: DBusCall, to bus: String) -> Result<DBusValue, DBusFailure> {
        guard let reply = socket.call(call, to: bus, timeoutMilliseconds: timeoutMilliseconds) else {
            return .failure(socket.closedBecause.map { .error(name: "", message: $0) } ?? .timedOut)
        }
        return DBusFailure.answer(of: reply)
    }

    /// The bus name of the application called `name`, once the registry lists it (asked every
    /// 100 ms, up to `timeout`), or nil: for the tests and benchmarks, which wait for an
    /// application they started.
    public func application(named name: String, timeout: Duration = .seconds(20)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if case .success(let listed) = sendAndWait(ATSPIRequest.children(ATSPIApplicationRead.root).call, to: ATSPIBridge.registry) {
                for candidate in (listed[0]?.items ?? []).compactMap({ $0[0]?.string }) {
                    if case .success(let named) = sendAndWait(ATSPIRequest.name(ATSPIApplicationRead.root).call, to: candidate), named[0]?.string == name {
                        return candidate
                    }
                }
            }
            usleep(100_000)
        }
        return nil
    }
}
