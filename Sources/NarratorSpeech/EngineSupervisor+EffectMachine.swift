import NarratorEngines
import NarratorSystem

/// The engine process's supervisor is driven like every other pure machine.
extension EngineSupervisor: EffectMachine {}

