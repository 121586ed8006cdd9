import Dispatch
import TesseraNumbers

/// What outbound requests that a request names (a marker icon's URL) may reach: URLs under
/// the allowed prefixes (compared in their canonical spelling, ``OutboundURL``), through
/// redirects that stay under them, at public addresses only unless private ones are allowed.
package struct OutboundPolicy: Sendable {
  /// The URL prefixes requests may fetch from.
  package var allowed: [OutboundURL]
  /// Whether loopback, private, link-local (cloud metadata) and other non-public addresses may
  /// be connected to. Checked on the address connected to, after name resolution.
  package var allowsPrivateAddresses: Bool
  /// Redirects followed, each checked against ``allowed`` again.
  package var maxRedirects: Int

  package init(allowed: [OutboundURL], allowsPrivateAddresses: Bool = false, maxRedirects: Int = 3) {
    self.allowed = allowed
    self.allowsPrivateAddresses = allowsPrivateAddresses
    self.maxRedirects = maxRedirects
  }

  /// Whether `url` is under an allowed prefix.
  package func allows(_ url: OutboundURL) -> Bool { allowed.contains { url.isWithin($0) } }
}

/// One GET under an ``OutboundPolicy`` and a deadline.
package enum OutboundFetch {
  /// The status and body of `url`, fetched only when the policy allows it (and every redirect
  /// on the way), finishing by `deadline` and taking at most `maxBytes`; throws a one-line
  /// reason otherwise.
  package static func get(_ url: OutboundURL, policy: OutboundPolicy, deadline: DispatchTime, maxBytes: Int)
    throws(OutboundFetchError) -> (status: Int, body: [UInt8])
  {
    var current = url
    for _ in 0...max(policy.maxRedirects, 0) {
      guard policy.allows(current) else {
        throw OutboundFetchError(
          reason: current == url
            ? "\(current) is not under an allowed prefix" : "a redirect to \(current) leaves the allowed prefixes")
      }
      let now = DispatchTime.now().uptimeNanoseconds
      let left = deadline.uptimeNanoseconds > now ? Int(clamping: (deadline.uptimeNanoseconds - now) / 1_000_000) : 0
      guard left >= 10 else { throw OutboundFetchError(reason: "no time was left to fetch \(current)") }
      let response: HTTPClient.Response
      do {
        response = try HTTPClient.get(
          current.description, headers: [],
          settings: HTTPClient.Settings(
            connectTimeoutMilliseconds: min(left, 10_000), timeoutMilliseconds: left, maxBodyBytes: maxBytes,
            userAgent: "tessera-serve", maxRedirects: 0, allowsPrivateAddresses: policy.allowsPrivateAddresses))
      } catch {
        throw OutboundFetchError(
          reason: error.bodyTooLarge ? "\(current) is larger than \(maxBytes) bytes" : "\(current): \(error.message)")
      }
      guard [301, 302, 303, 307, 308].contains(response.status) else { return (response.status, response.body) }
      guard let location = response.headers["location"] else {
        throw OutboundFetchError(reason: "\(current) answered \(response.status) without a Location")
      }
      do {
        current = try current.resolving(location)
      } catch {
        throw OutboundFetchError(reason: "\(url) redirects to an unusable URL: \(error.reason)")
      }
    }
    throw OutboundFetchError(reason: "\(url) redirects more than \(policy.maxRedirects) times")
  }
}

/// Why an outbound request was not made or did not complete.
package struct OutboundFetchError: Error, CustomStringConvertible {
  package let reason: String
  package var description: String { reason }
}
