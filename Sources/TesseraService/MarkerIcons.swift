import Dispatch
import Foundation
import Synchronization
import TesseraData
import TesseraImage
import TesseraNumbers

/// Custom marker icons of Static Maps requests (`markers=icon:URL|…`), taken only from the
/// configured places: URLs under an allowed prefix (``OutboundPolicy``: canonical URLs, checked
/// again on every redirect, public addresses only unless configured) or names inside an icons
/// folder (no `..`, absolute paths or links leading out). Fetched under the request's deadline
/// on the request's own preparation, never on the HTTP server's threads. At most five distinct
/// icons per request, as Google allows; the last icons fetched are kept in memory (a bounded
/// number of them).
package final class MarkerIcons: Sendable {
  static let maximumPerRequest = 5
  static let maximumBytes = 1 << 20
  /// Icons kept after they are fetched.
  static let cacheEntries = 64

  let policy: OutboundPolicy
  let folder: String?
  private let cache = Mutex<(entries: [String: [UInt8]], order: [String])>(([:], []))

  package init(policy: OutboundPolicy, folder: String?) {
    self.policy = policy
    self.folder = folder.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
  }

  /// The picture `icon` names (its encoded bytes), or why it cannot be used; gives up at
  /// `deadline`.
  package func picture(for icon: String, until deadline: DispatchTime) -> Result<[UInt8], ServiceError> {
    func refuse(_ reason: String) -> Result<[UInt8], ServiceError> {
      .failure(ServiceError(status: 400, reason: reason))
    }
    let shown = HeaderText.clean(String(icon.prefix(200)))
    if icon.lowercased().hasPrefix("http://") || icon.lowercased().hasPrefix("https://") {
      let url: OutboundURL
      do {
        url = try OutboundURL(icon)
      } catch {
        return refuse("icon \(shown): \(error.reason)")
      }
      guard policy.allows(url) else { return refuse("icon \(shown) is not on an allowed icon host") }
      let key = url.description
      if let known = cache.withLock({ $0.entries[key] }) { return .success(known) }
      do {
        let (status, body) = try OutboundFetch.get(url, policy: policy, deadline: deadline, maxBytes: Self.maximumBytes)
        guard status == 200, ImageFormat.sniff(body) != nil else {
          return refuse("icon \(shown) answered \(status) without a PNG, JPEG, WebP or GIF picture")
        }
        remember(body, as: key)
        return .success(body)
      } catch {
        return refuse("icon \(shown) cannot be fetched: \(HeaderText.clean(error.reason))")
      }
    }
    guard let folder else { return refuse("icon \(shown): no icon folder or hosts are configured") }
    guard !icon.hasPrefix("/"), !icon.contains(".."), !icon.contains("\0") else {
      return refuse("icon \(shown) must name a file inside the icon folder")
    }
    let resolved = URL(fileURLWithPath: folder + "/" + icon).resolvingSymlinksInPath().path
    guard resolved.hasPrefix(folder + "/") else { return refuse("icon \(shown) is not a file inside the icon folder") }
    do {
      let bytes = try ResourceAccess.local(directory: folder).contents(
        resolved, field: "icon", maxBytes: Self.maximumBytes)
      guard ImageFormat.sniff(bytes) != nil else { return refuse("icon \(shown) is not a PNG, JPEG, WebP or GIF") }
      return .success(bytes)
    } catch {
      return refuse("icon \(shown) is not a readable file inside the icon folder")
    }
  }

  private func remember(_ bytes: [UInt8], as key: String) {
    cache.withLock { cache in
      guard cache.entries[key] == nil else { return }
      cache.entries[key] = bytes
      cache.order.append(key)
      while cache.order.count > Self.cacheEntries { cache.entries[cache.order.removeFirst()] = nil }
    }
  }
}

/// Text from a request made safe to show in a header or a log line: control characters
/// (CR and LF among them) become spaces.
enum HeaderText {
  static func clean(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
  }
}
