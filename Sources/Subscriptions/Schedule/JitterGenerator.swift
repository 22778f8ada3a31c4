import Synchronization

/// Random numbers for the schedule's jitter: a SplitMix64 sequence seeded once from the system's
/// generator. The system's generator is a system call per number, and every source's end draws
/// one; spreading retries needs no more than a well-mixed sequence.
struct JitterGenerator: RandomNumberGenerator {
  private static let state = Mutex<UInt64>(UInt64.random(in: .min ... .max))

  mutating func next() -> UInt64 {
    let seed = Self.state.withLock { state in
      state &+= 0x9E37_79B9_7F4A_7C15
      return state
    }
    var mixed = seed
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}
