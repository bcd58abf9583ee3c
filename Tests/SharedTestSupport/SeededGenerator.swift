// Randomness that repeats.

/// A small deterministic random number generator (SplitMix64), so that shuffled and random tests
/// repeat exactly and a failing seed replays.
public struct SeededGenerator: RandomNumberGenerator {
    private var _state: UInt64

    /// Makes the generator whose sequence `seed` names.
    public init(seed: UInt64) {
        _state = seed
    }

    /// The next number of the sequence.
    public mutating func next() -> UInt64 {
        _state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = _state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
