import Foundation
import Synchronization
import TesseraJSON
import TesseraNumbers

/// A bounded disk cache of HTTP responses: one body file and one JSON file of validators per
/// URL, kept until the total size exceeds the budget (least recently used go first).
final class HTTPDiskCache: Sendable {
  struct Entry: Sendable {
    var body: [UInt8]
    var etag: String?
    var lastModified: String?
    /// Seconds since 1970 until which the entry is fresh.
    var expires: Double
  }

  let directory: String
  let maxBytes: Int
  /// Key → (body size, last use), for eviction.
  private let index = Mutex<[String: (size: Int, used: Double)]>([:])

  init(directory: String, maxBytes: Int) throws(TileSourceError) {
    self.directory = directory
    self.maxBytes = maxBytes
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw TileSourceError.open(
        source: directory, reason: "cannot create the HTTP cache folder: \(error.localizedDescription)")
    }
    var entries: [String: (size: Int, used: Double)] = [:]
    for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where file.hasSuffix(".body") {
      let path = "\(directory)/\(file)"
      let attributes = try? FileManager.default.attributesOfItem(atPath: path)
      let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
      let used = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
      entries[String(file.dropLast(5))] = (size, used)
    }
    index.withLock { $0 = entries }
  }

  /// The stored response for `url`, if any.
  func entry(for url: String) -> Entry? {
    let key = HTTPDiskCache.key(url)
    guard let body = FileManager.default.contents(atPath: "\(directory)/\(key).body"),
      let metaData = FileManager.default.contents(atPath: "\(directory)/\(key).json"),
      let meta = try? JSONParser.parse(Array(metaData)), meta["url"]?.string == url
    else { return nil }
    let now = Date().timeIntervalSince1970
    index.withLock { $0[key] = (body.count, now) }
    try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: "\(directory)/\(key).body")
    return Entry(
      body: Array(body), etag: meta["etag"]?.string, lastModified: meta["lastModified"]?.string,
      expires: meta["expires"]?.number ?? 0)
  }

  /// Stores (or refreshes) the response for `url`, then evicts beyond the budget.
  func store(_ entry: Entry, for url: String) {
    let key = HTTPDiskCache.key(url)
    var meta = JSONObject()
    meta["url"] = .string(url)
    if let etag = entry.etag { meta["etag"] = .string(etag) }
    if let lastModified = entry.lastModified { meta["lastModified"] = .string(lastModified) }
    meta["expires"] = .number(entry.expires)
    let bodyURL = URL(fileURLWithPath: "\(directory)/\(key).body")
    let metaURL = URL(fileURLWithPath: "\(directory)/\(key).json")
    do {
      try Data(entry.body).write(to: bodyURL, options: .atomic)
      try Data(JSONValue.object(meta).serialized().utf8).write(to: metaURL, options: .atomic)
    } catch {
      return
    }
    let now = Date().timeIntervalSince1970
    let victims: [String] = index.withLock { entries in
      entries[key] = (entry.body.count, now)
      var total = entries.values.reduce(0) { $0 + $1.size }
      var removed: [String] = []
      for (candidate, value) in entries.sorted(by: { $0.value.used < $1.value.used }) where total > maxBytes {
        guard candidate != key else { continue }
        total -= value.size
        entries[candidate] = nil
        removed.append(candidate)
      }
      return removed
    }
    for victim in victims {
      try? FileManager.default.removeItem(atPath: "\(directory)/\(victim).body")
      try? FileManager.default.removeItem(atPath: "\(directory)/\(victim).json")
    }
  }

  /// Total bytes of stored bodies.
  var totalBytes: Int { index.withLock { $0.values.reduce(0) { $0 + $1.size } } }

  /// A file-name-safe key of a URL (FNV-1a 64, hex).
  static func key(_ url: String) -> String {
    FNV1a.paddedHex(FNV1a.hash(url))
  }
}
