import NarratorBridge
import NarratorSystem

/// The bridge's core is driven like every other pure machine.
extension ATSPIBridge: EffectMachine {}
