import CCrypto
import Foundation
import TesseraNumbers

/// API keys and Google's URL signatures: `signature` is the URL-safe base64 of the HMAC-SHA1 of
/// the request's path and query up to `&signature=`, keyed with the URL-safe base64 decoded
/// secret (OpenSSL's HMAC).
enum URLSigning {
  /// The signature of `target` (path and query as sent) with `secret` (URL-safe base64), or
  /// nil when the secret is not base64.
  static func signature(of target: String, secret: String) -> String? {
    guard let key = decode(secret) else { return nil }
    let data = Array(target.utf8)
    var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    let result = key.withUnsafeBytes { keyBytes in
      HMAC(EVP_sha1(), keyBytes.baseAddress, Int32(key.count), data, data.count, &digest, &length)
    }
    guard result != nil else { return nil }
    return Data(digest[0..<Int(length)]).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
  }

  /// Whether `rawTarget` ends in a `signature=` that signs the rest with `secret`.
  static func verify(_ rawTarget: String, secret: String) -> Bool {
    guard let range = rawTarget.range(of: "&signature=", options: .backwards) else { return false }
    let signed = String(rawTarget[..<range.lowerBound])
    let given = String(rawTarget[range.upperBound...])
    guard let expected = signature(of: signed, secret: secret) else { return false }
    return constantTimeEqual(Array(given.utf8), Array(expected.utf8))
  }

  private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for (x, y) in zip(a, b) { difference |= x ^ y }
    return difference == 0
  }

  private static func decode(_ text: String) -> [UInt8]? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    return Data(base64Encoded: base64).map(Array.init)
  }
}

/// URL signatures as a client makes them (for tests and tools).
public enum URLSigningProbe {
  /// The URL-safe base64 HMAC-SHA1 signature of `target` with `secret`.
  public static func signature(of target: String, secret: String) -> String? {
    URLSigning.signature(of: target, secret: secret)
  }
}
