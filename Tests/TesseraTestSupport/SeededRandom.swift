/// A small deterministic random generator (SplitMix64) for property and mutation tests: the same
/// seed gives the same sequence on every machine, so a failure can be replayed from its seed.
public struct SeededRandom: RandomNumberGenerator {
  private var state: UInt64

  public init(seed: UInt64) {
    state = seed
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A double uniformly in `range`.
  public mutating func double(in range: ClosedRange<Double>) -> Double {
    Double.random(in: range, using: &self)
  }

  /// `bytes` with a few random mutations: flipped bits, overwritten bytes, a truncation, a
  /// duplicated or deleted run.
  public mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
    var result = bytes
    guard !result.isEmpty else { return [UInt8.random(in: 0...255, using: &self)] }
    for _ in 0..<Int.random(in: 1...4, using: &self) {
      let position = Int.random(in: 0..<max(result.count, 1), using: &self)
      switch Int.random(in: 0..<6, using: &self) {
      case 0: result[position] ^= UInt8(1 << Int.random(in: 0..<8, using: &self))
      case 1: result[position] = UInt8.random(in: 0...255, using: &self)
      case 2: result = Array(result.prefix(position))
      case 3:
        let length = min(Int.random(in: 1...16, using: &self), result.count - position)
        result.insert(contentsOf: result[position..<position + length], at: position)
      case 4:
        let length = min(Int.random(in: 1...16, using: &self), result.count - position)
        result.removeSubrange(position..<position + length)
      default: result[position] = [0x00, 0xFF, 0x7F, 0x80][Int.random(in: 0..<4, using: &self)]
      }
      if result.isEmpty { break }
    }
    return result
  }
}
