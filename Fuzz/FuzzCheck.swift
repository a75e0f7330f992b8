/// Invariant checks shared by the fuzzers: a broken invariant prints what was expected and
/// traps, so libFuzzer records the input as a crash.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        print("fuzz invariant broken: \(message())")
        fatalError(message())
    }
}
