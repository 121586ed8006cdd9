import Foundation
import Synchronization
import TesseraData
import TesseraImage
import TesseraNumbers

/// Custom marker icons of Static Maps requests (`markers=icon:URL|…`), taken only from the
/// configured places: URLs under an allowed host prefix (fetched once, kept on disk) or names
/// inside an icons folder (no `..`, absolute paths or links leading out). At most five distinct
/// icons per request, as Google allows.
final class MarkerIcons: Sendable {
  static let maximumPerRequest = 5
  static let maximumBytes = 1 << 20

  let hosts: [String]
  let folder: String?
  let cache: String
  private let fetched = Mutex<[String: String]>([:])

  init(hosts: [String], folder: String?) {
    self.hosts = hosts
    self.folder = folder.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
    cache = NSTemporaryDirectory() + "tessera-serve-icons-\(ProcessInfo.processInfo.processIdentifier)"
  }

  /// The local file of `icon`, or why it cannot be used.
  func file(for icon: String) -> Result<String, ServiceError> {
    func refuse(_ reason: String) -> Result<String, ServiceError> {
      .failure(ServiceError(status: 400, reason: reason))
    }
    if icon.hasPrefix("http://") || icon.hasPrefix("https://") {
      guard hosts.contains(where: { icon.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else {
        return refuse("icon \(icon) is not on an allowed icon host")
      }
      if let known = fetched.withLock({ $0[icon] }) { return .success(known) }
      do {
        let (status, body) = try HTTPFetch.get(icon, timeout: 5, maxBytes: Self.maximumBytes)
        guard status == 200, ImageFormat.sniff(body) != nil else {
          return refuse("icon \(icon) answered \(status) without a PNG, JPEG or WebP picture")
        }
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let path = cache + "/" + String(UInt64(bitPattern: Int64(icon.hashValue)), radix: 16) + ".img"
        try Data(body).write(to: URL(fileURLWithPath: path))
        fetched.withLock { $0[icon] = path }
        return .success(path)
      } catch {
        return refuse("icon \(icon) cannot be fetched: \(error)")
      }
    }
    guard let folder else { return refuse("icon \(icon): no icon folder or hosts are configured") }
    guard !icon.hasPrefix("/"), !icon.contains(".."), !icon.contains("\0") else {
      return refuse("icon \(icon) must name a file inside the icon folder")
    }
    let resolved = URL(fileURLWithPath: folder + "/" + icon).resolvingSymlinksInPath().path
    guard resolved.hasPrefix(folder + "/"), FileManager.default.fileExists(atPath: resolved) else {
      return refuse("icon \(icon) is not a file inside the icon folder")
    }
    return .success(resolved)
  }
}
