import TesseraNumbers

/// A value of a hashable type boxed once with its hash, for the keys that erase their type
/// (``ResourceKey``, ``Pipeline``), which frames look up for every draw: copies retain one
/// reference, hashing combines one integer, boxes of different hashes compare unequal without
/// opening their values, and boxes of one type compare their values directly (a class cast, not
/// a dynamic cast of an existential).
protocol ErasedKeyBox: AnyObject, Sendable {
  associatedtype Key: Hashable & Sendable
  /// The value.
  var key: Key { get }
  /// The value's type and the value hashed together (equal values have equal hashes in a
  /// process).
  var hash: Int { get }
}

extension ErasedKeyBox {
  /// The hash of `key` with its type, for ``hash``.
  static func hash(of key: Key) -> Int {
    var hasher = Hasher()
    hasher.combine(ObjectIdentifier(Key.self))
    hasher.combine(key)
    return hasher.finalize()
  }

  /// Whether `other` is a box of this type holding an equal value.
  func holdsSameKey(as other: AnyObject) -> Bool {
    guard let other = other as? Self else { return false }
    return key == other.key
  }
}
