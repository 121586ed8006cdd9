import Foundation
import Synchronization
import Tessera
import TesseraJSON
import TesseraNumbers

/// The font files a snapshot was drawn with, each by name, size and checksum: recorded beside
/// a reference (`<name>.fonts.json`) and compared when the snapshot is checked, so that
/// references drawn with other fonts fail with a message naming the files rather than a pixel
/// difference nobody can explain.
public struct FontFingerprint: Sendable, Equatable {
  public struct File: Sendable, Equatable, Comparable {
    /// The file's name (`NotoSans-Regular.ttf`), without its folder: the same fonts are found
    /// at other paths on other machines.
    public let name: String
    public let bytes: Int
    /// FNV-1a (64 bits) of the file's bytes, hex.
    public let checksum: String

    public init(name: String, bytes: Int, checksum: String) {
      self.name = name
      self.bytes = bytes
      self.checksum = checksum
    }

    public static func < (a: File, b: File) -> Bool { (a.name, a.checksum) < (b.name, b.checksum) }
  }

  public let files: [File]

  public init(files: [File]) { self.files = files.sorted() }

  /// The fingerprint of the font files `map` has drawn glyphs from.
  public init(of map: Map) {
    self.init(files: Set(map.fontFacesUsed.map(\.path)).compactMap(FontFingerprint.file))
  }

  private static let checksums = Mutex<[String: File]>([:])

  /// A font file's entry (checksummed once per process).
  static func file(_ path: String) -> File? {
    if let known = checksums.withLock({ $0[path] }) { return known }
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    let hash = data.withUnsafeBytes { FNV1a.hash($0) }
    let file = File(name: (path as NSString).lastPathComponent, bytes: data.count, checksum: String(hash, radix: 16))
    checksums.withLock { $0[path] = file }
    return file
  }

  /// The JSON of a fingerprint file.
  public var json: String {
    let entries = files.map {
      "    {\"file\": \"\($0.name)\", \"bytes\": \($0.bytes), \"checksum\": \"\($0.checksum)\"}"
    }
    return "{\n  \"fonts\": [\n" + entries.joined(separator: ",\n") + "\n  ]\n}\n"
  }

  /// Reads a fingerprint file; nil when it is not one.
  public init?(json bytes: [UInt8]) {
    guard let root = try? JSONParser.parse(bytes), let fonts = root.object?["fonts"]?.array else { return nil }
    var files: [File] = []
    for entry in fonts {
      guard let object = entry.object, let name = object["file"]?.string, let checksum = object["checksum"]?.string,
        let bytes = object["bytes"]?.number
      else { return nil }
      files.append(File(name: name, bytes: Int(clamping: bytes), checksum: checksum))
    }
    self.init(files: files)
  }

  /// How this machine's fonts (`self`) differ from the reference's, one phrase a file; empty
  /// when they are the same.
  public func differences(from reference: FontFingerprint) -> [String] {
    let here = Dictionary(files.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    let there = Dictionary(reference.files.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    var phrases: [String] = []
    for name in Set(here.keys).union(there.keys).sorted() {
      switch (here[name], there[name]) {
      case (let mine?, let theirs?) where mine != theirs:
        phrases.append(
          "\(name) is another version here (\(mine.bytes) bytes, checksum \(mine.checksum); the reference's: "
            + "\(theirs.bytes) bytes, \(theirs.checksum))")
      case (nil, _?): phrases.append("\(name) drew the reference but nothing here")
      case (_?, nil): phrases.append("\(name) draws here but not in the reference")
      default: break
      }
    }
    return phrases
  }
}
