import TesseraNumbers

/// A hash of a ``JSONValue``'s contents, for keying what a process makes from a document (the
/// tiles of inline GeoJSON, shared between maps and requests) without writing the document out
/// as text.
///
/// Every value feeds a kind tag, then its contents: a number its IEEE 754 bits (−0 as 0), a
/// string its length and UTF-8 bytes, an array its count and elements, an object its count
/// and members in document order. The encoding is prefix-free, so equal values have the same
/// fingerprint and different values (`[1]` and `1`, `"ab"` and `["a", "b"]`, members in
/// another order, and unlike JSON text also the non-finite numbers made in code that all write
/// as `null`) feed different input. The hash is Swift's `Hasher` (SipHash), keyed by the
/// process's random seed: a fingerprint holds only within one process, and nobody outside it
/// can make two documents share one (a request cannot have its tiles taken for another's)
/// unless the process runs with `SWIFT_DETERMINISTIC_HASHING` set, which Tessera never sets.
package struct JSONFingerprint {
  private var hasher = Hasher()

  package init() {}

  /// The fingerprint of `json` alone, so far.
  package init(_ json: JSONValue) {
    add(json)
  }

  /// The hash in hexadecimal (sixteen digits).
  package var hex: String {
    let value = UInt64(bitPattern: Int64(hasher.finalize()))
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Feeds `json`'s contents.
  package mutating func add(_ json: JSONValue) {
    switch json {
    case .null: hasher.combine(UInt8(0))
    case .bool(let flag): hasher.combine(UInt8(flag ? 2 : 1))
    case .number(let number):
      hasher.combine(UInt8(3))
      hasher.combine(number == 0 ? 0 : number.bitPattern)
    case .string(let text):
      hasher.combine(UInt8(4))
      add(text: text)
    case .array(let elements):
      hasher.combine(UInt8(5))
      hasher.combine(elements.count)
      for element in elements { add(element) }
    case .object(let object):
      hasher.combine(UInt8(6))
      hasher.combine(object.count)
      for key in object.keys {
        add(text: key)
        if let member = object[key] { add(member) }
      }
    }
  }

  /// Feeds a string's length and UTF-8 bytes (not its `Hashable` value, which equates
  /// canonically equivalent strings whose bytes differ); unlike a JSON string value, no kind
  /// tag: for what is added beside the value (options).
  package mutating func add(text: String) {
    var text = text
    text.withUTF8 { bytes in
      hasher.combine(bytes.count)
      hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    }
  }
}
