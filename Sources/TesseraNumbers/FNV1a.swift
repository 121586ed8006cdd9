/// FNV-1a, 64 bits: the hash Tessera uses for file names, cache keys, entity tags and
/// duplicate checks. It is fast and stable across machines and versions, and not
/// collision-resistant: where a collision would matter (an attacker's input, a stored file),
/// compare the keys or bytes themselves as well.
public enum FNV1a {
  /// The hash of no bytes (the offset basis).
  public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
  /// The 64-bit FNV prime.
  public static let prime: UInt64 = 0x0000_0100_0000_01B3

  /// The hash of `bytes`, continuing from `hash` (the hash of the bytes before them).
  @inlinable
  public static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes, continuing hash: UInt64 = offsetBasis)
    -> UInt64
  {
    var value = hash
    for byte in bytes {
      value ^= UInt64(byte)
      value = value &* prime
    }
    return value
  }

  /// The hash of the UTF-8 bytes of `text`.
  @inlinable
  public static func hash(_ text: String) -> UInt64 { hash(text.utf8) }

  /// `value` as 16 lowercase hex digits, zero-padded (a name of fixed length).
  public static func paddedHex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
