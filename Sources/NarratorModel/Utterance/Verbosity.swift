/// How much Narrator says of each element, as Orca's speech verbosity: `verbose` says
/// everything; `brief` leaves out the hint and what Orca's brief level leaves out (a table's
/// size: "Race schedule, table"). The user's setting (`verbosity`), kept by narratord.
public enum Verbosity: String, CaseIterable, Sendable {
    case brief, verbose
}
