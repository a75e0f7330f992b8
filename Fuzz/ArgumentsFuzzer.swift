import NarratorCLI
import NarratorCommandLine

/// Fuzzes `narratorctl`'s argument parsing (`InvocationParser.parse`, which drives
/// `ArgumentParser.parse` for every command's grammar). The input is split into arguments on
/// NUL and newline bytes; invalid UTF-8 is repaired, as the process' arguments are.
///
/// Invariants: nothing crashes; a usage error always has a message; parsing is deterministic.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: data, count: size)
    let arguments = buffer.split(omittingEmptySubsequences: false) { $0 == 0 || $0 == UInt8(ascii: "\n") }
        .prefix(64)
        .map { String(decoding: UnsafeBufferPointer(rebasing: $0), as: UTF8.self) }
    let first: Result<Invocation, UsageError>
    do { first = .success(try InvocationParser.parse(arguments)) } catch { first = .failure(error) }
    if case .failure(let error) = first {
        require(!error.message.isEmpty, "usage error without a message for \(arguments)")
    }
    let second: Result<Invocation, UsageError>
    do { second = .success(try InvocationParser.parse(arguments)) } catch { second = .failure(error) }
    require(first == second, "parsing \(arguments) twice gave \(first) and \(second)")
    return 0
}
