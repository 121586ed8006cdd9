import Foundation
import Synchronization
import TesseraNumbers

/// What a reader of a description from outside (a scene file, a request body, command-line
/// flags) may reach when one of its fields names a file, a folder or a URL.
///
/// Whoever reads a description decides its access once and hands it to the reader; every field
/// that names something goes through it, and what is read keeps it (a ``Scene`` carries its
/// access to the markers and overlays it reads later), so no later step — a merge of fields, a
/// default, another reader — can widen it:
///
/// - ``local(directory:)``: files and folders (relative names against `directory`) and tile
///   sources of any kind, URLs included. For descriptions the user owns: scene files and flags.
/// - ``inlineOnly(providing:)``: nothing a field names is opened; content must be written inline,
///   except resources the caller itself provides by name (for a service: marker icons it fetched
///   under its own rules). For descriptions from the network: a request body.
public struct ResourceAccess: Sendable {
  enum Reach: Sendable, Equatable {
    case local(directory: String)
    case inline
  }

  let reach: Reach
  /// Content the caller provides by name, in either reach (looked up before files).
  let provided: [String: [UInt8]]
  /// Where the files and folders resolved are written down, if anywhere.
  let log: ResourceLog?

  /// Files and folders (relative names against `directory`) and tile sources and URLs of any
  /// kind; each file or folder resolved is written to `log` when one is given (a command keeps
  /// its outputs off what it read).
  public static func local(directory: String, log: ResourceLog? = nil) -> ResourceAccess {
    ResourceAccess(reach: .local(directory: directory), provided: [:], log: log)
  }

  /// No file, folder, source or URL a field names; only the resources in `providing`, by name.
  public static func inlineOnly(providing resources: [String: [UInt8]] = [:]) -> ResourceAccess {
    ResourceAccess(reach: .inline, provided: resources, log: nil)
  }

  /// Whether fields may name files, folders, sources and URLs.
  public var reachesFiles: Bool { reach != .inline }

  /// The folder relative names resolve against; nil for inline-only access.
  public var directory: String? {
    guard case .local(let directory) = reach else { return nil }
    return directory
  }

  /// The same access with relative names resolving against `directory` (inline-only access
  /// stays as it is).
  public func resolving(against directory: String) -> ResourceAccess {
    guard reachesFiles else { return self }
    return ResourceAccess(reach: .local(directory: directory), provided: provided, log: log)
  }

  /// The absolute path of the file or folder `name` (relative to ``directory``) named by
  /// `field`, normalised; refused for inline-only access.
  public func path(_ name: String, field: String) throws(ResourceAccessError) -> String {
    guard case .local(let directory) = reach else { throw .refused(field: field, kind: "a file") }
    guard !name.isEmpty, !name.contains("\0") else {
      throw .unreadable(field: field, name: name, reason: "an empty or invalid name")
    }
    let joined = name.hasPrefix("/") ? name : (directory.isEmpty ? name : directory + "/" + name)
    let resolved = URL(fileURLWithPath: joined).standardizedFileURL.path
    log?.record(resolved)
    return resolved
  }

  /// A tile source reference (a path, `mbtiles://…`, `pmtiles://…`, `file://…`, `http(s)://…`,
  /// a TileJSON URL) named by `field`, as the tile source locator takes it; refused for
  /// inline-only access. The `demo://` source names nothing outside and is always allowed.
  public func sourceReference(_ reference: String, field: String) throws(ResourceAccessError) -> String {
    if reference.hasPrefix("demo://") { return reference }
    guard reachesFiles else { throw .refused(field: field, kind: "a tile source") }
    if let log, case .local(let directory) = reach {
      var local = reference
      for scheme in ["mbtiles://", "pmtiles://", "file://"] where local.hasPrefix(scheme) {
        local = String(local.dropFirst(scheme.count))
      }
      if !local.contains("://") {
        log.record(
          URL(fileURLWithPath: local.hasPrefix("/") ? local : directory + "/" + local).standardizedFileURL.path)
      }
    }
    return reference
  }

  /// The bytes of the resource `name` names for `field`: a provided resource of that name, else
  /// (local access only) the file; at most `maxBytes`.
  public func contents(_ name: String, field: String, maxBytes: Int = 256 << 20) throws(ResourceAccessError)
    -> [UInt8]
  {
    if let bytes = provided[name] { return bytes }
    let file = try path(name, field: field)
    var status = stat()
    guard stat(file, &status) == 0 else {
      throw .unreadable(field: field, name: file, reason: String(cString: strerror(errno)))
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw .unreadable(field: field, name: file, reason: "not a regular file")
    }
    guard Int(status.st_size) <= maxBytes else {
      throw .unreadable(field: field, name: file, reason: "larger than \(maxBytes) bytes")
    }
    guard let data = FileManager.default.contents(atPath: file) else {
      throw .unreadable(field: field, name: file, reason: "cannot be read")
    }
    return Array(data)
  }

  /// Whether `name` is a resource the caller provided.
  public func provides(_ name: String) -> Bool { provided[name] != nil }
}

/// The files and folders a local ``ResourceAccess`` resolved, each once, in the order first
/// resolved, from any thread. Entries are only ever appended, so a reader can take the new ones
/// since its last look (``paths(from:)``).
public final class ResourceLog: Sendable {
  private struct Entries {
    var list: [String] = []
    var seen: Set<String> = []
  }

  /// The most distinct paths kept.
  public static let capacity = 100_000
  private let entries = Mutex(Entries())

  public init() {}

  /// The paths resolved so far.
  public var paths: [String] { entries.withLock { $0.list } }

  /// The paths first resolved after the first `start` ones.
  public func paths(from start: Int) -> ArraySlice<String> {
    entries.withLock { $0.list[min(max(start, 0), $0.list.count)...] }
  }

  func record(_ path: String) {
    entries.withLock { entries in
      guard entries.list.count < Self.capacity, entries.seen.insert(path).inserted else { return }
      entries.list.append(path)
    }
  }
}

/// A field that names something its reader may not reach, or cannot read.
public enum ResourceAccessError: Error, Equatable, CustomStringConvertible {
  /// The reader's access does not reach what the field names (`kind`: "a file", "a tile source").
  case refused(field: String, kind: String)
  /// What the field names cannot be read.
  case unreadable(field: String, name: String, reason: String)

  public var description: String {
    switch self {
    case .refused(let field, let kind):
      return "\(field): names \(kind), but this description may only hold inline content"
    case .unreadable(let field, let name, let reason):
      return "\(field): cannot read '\(name)': \(reason)"
    }
  }
}
