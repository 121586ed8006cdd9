import Dispatch
import Foundation
import Tessera
import TesseraData
import TesseraImage
import TesseraNumbers
import TesseraService

/// Where the command line's marker pictures (`--marker icon=…`, `info-window=…`) may come
/// from, under the service's rules: a local file as written; a name inside `--icon-folder`
/// (with or without its extension; no `..`, absolute paths or links leading out); an
/// `http(s)://` URL only under a `--icon-host` prefix (off by default; public addresses only,
/// redirects checked again, 1 MB at most, 10 seconds). Every refusal says why.
struct IconSources {
  /// URL prefixes icons may be fetched from (`--icon-host`, repeatable).
  var hosts: [OutboundURL] = []
  /// The folder named icons are read from (`--icon-folder`).
  var folder: String?

  /// Seconds a fetched icon may take.
  static let fetchSeconds = 10.0

  /// Local files only.
  init() {}

  init(_ arguments: ParsedArguments) throws(UsageError) {
    for prefix in arguments.allValues("icon-host") {
      do {
        hosts.append(try OutboundURL(prefix))
      } catch {
        throw UsageError("--icon-host: \(error.reason)")
      }
    }
    if let folder = arguments.value("icon-folder") {
      let absolute = Scene.absolutePath(folder, against: FileManager.default.currentDirectoryPath)
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isFolder), isFolder.boolValue else {
        throw UsageError("--icon-folder: \(absolute) is not a folder")
      }
      self.folder = absolute
    }
  }

  /// The icon `value` names for `--marker KEY=…`.
  func icon(_ value: String, key: String) throws -> MarkerIcon {
    let lowered = value.lowercased()
    if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
      guard !hosts.isEmpty else {
        throw CommandFailure(
          "--marker \(key): \(value) is a URL, and icon URLs are off; allow a prefix with --icon-host URL")
      }
      return try picture(value, folder: nil, key: key)
    }
    if let scheme = value.range(of: "://"), !value[..<scheme.lowerBound].contains("/") {
      throw CommandFailure("--marker \(key): \(value): only http(s) URLs (with --icon-host) and files are read")
    }
    if let folder, !value.contains("/") {
      let named = [value, value + ".png"].first { FileManager.default.fileExists(atPath: folder + "/" + $0) }
      guard let named else {
        throw CommandFailure("--marker \(key): no icon '\(value)' (or '\(value).png') in the icon folder \(folder)")
      }
      return try picture(named, folder: folder, key: key)
    }
    do {
      return try MarkerIcon(contentsOfFile: value)
    } catch {
      throw CommandFailure("--marker \(key): \(error)")
    }
  }

  /// An icon fetched from an allowed host or read from the icon folder.
  private func picture(_ name: String, folder: String?, key: String) throws -> MarkerIcon {
    let icons = MarkerIcons(policy: OutboundPolicy(allowed: hosts), folder: folder)
    let deadline = DispatchTime.now() + Self.fetchSeconds
    switch icons.picture(for: name, until: deadline) {
    case .success(let bytes):
      do {
        return MarkerIcon(image: try ImageCodec.decode(bytes, source: name))
      } catch {
        throw CommandFailure("--marker \(key): \(error)")
      }
    case .failure(let error):
      throw CommandFailure("--marker \(key): \(error.reason)")
    }
  }
}
