import Foundation
import Tessera
import TesseraData
import TesseraJSON
import TesseraNumbers

/// What one command reads, so that none of its outputs replaces one of its inputs: the files
/// and folders its arguments name, the files its scene's fields named (a ``ResourceLog``) and
/// the files the process holds open (tile archives), each known by device and inode after links
/// are followed. An output that is one of them is refused, whatever name reaches it (another
/// spelling, a symbolic link, a hard link).
struct OutputGuard {
  struct Identity: Hashable {
    let device: UInt64
    let inode: UInt64

    /// The identity of what `path` reaches (links followed), or nil when nothing is there.
    init?(_ path: String) {
      var status = stat()
      guard stat(path, &status) == 0 else { return nil }
      device = UInt64(status.st_dev)
      inode = UInt64(status.st_ino)
    }
  }

  /// Each input, and how the command line or the scene named it.
  private(set) var inputs: [Identity: String] = [:]
  /// How many paths of the ``ResourceLog`` last added are inputs already, and which log.
  private var logged: (log: ObjectIdentifier, count: Int)?

  /// The inputs `arguments` name: every positional argument and option value, and every piece
  /// of a value split at `,` `|` `=` (and with a `mbtiles://`, `pmtiles://` or `file://` scheme
  /// taken off) that names an existing file or folder; the values of `outputOptions` are
  /// outputs, not inputs.
  init(arguments: ParsedArguments, outputOptions: Set<String>) {
    var values = arguments.positionals.map { ("argument", $0) }
    for (name, value) in arguments.ordered where !outputOptions.contains(name) && !value.isEmpty {
      values.append(("--\(name)", value))
    }
    for (option, value) in values {
      var pieces = [value]
      for separator in [",", "|", "="] {
        pieces = pieces.flatMap { $0.split(separator: Character(separator)).map(String.init) }
      }
      for piece in Set(pieces + [value]) {
        var path = piece
        for scheme in ["mbtiles://", "pmtiles://", "file://"] where path.hasPrefix(scheme) {
          path = String(path.dropFirst(scheme.count))
        }
        add(path, as: "\(option) \(path)")
      }
    }
  }

  /// No inputs yet.
  init() {}

  /// Adds every string in `value` that names an existing file or folder, relative names against
  /// `folder` (the files a scene's fields name, before they are read).
  mutating func addNames(in value: JSONValue, against folder: String) {
    switch value {
    case .string(let text) where !text.isEmpty && !text.contains("://") && text.count < 4096:
      add(Scene.absolutePath(text, against: folder), as: text)
    case .array(let elements): for element in elements { addNames(in: element, against: folder) }
    case .object(let object): for (_, member) in object.pairs { addNames(in: member, against: folder) }
    default: break
    }
  }

  /// Adds `path` (when something is there) as an input named `name`.
  mutating func add(_ path: String, as name: String) {
    guard !path.isEmpty, let identity = Identity(path), inputs[identity] == nil else { return }
    inputs[identity] = name
  }

  /// Adds every file and folder `log` saw resolved: those resolved since the last call with the
  /// same log, so that a batch adding its log after every job looks at each path once.
  mutating func add(_ log: ResourceLog) {
    let start = logged.map { $0.log == ObjectIdentifier(log) ? $0.count : 0 } ?? 0
    let paths = log.paths(from: start)
    for path in paths { add(path, as: path) }
    logged = (ObjectIdentifier(log), start + paths.count)
  }

  /// Adds the local tile sources the style file at `path` names (relative ones against
  /// `dataRoot`), without opening them.
  mutating func addSources(ofStyle path: String, dataRoot: String) {
    guard let style = try? Style.load(path: path) else { return }
    for source in style.sources.values {
      for reference in [source.url].compactMap({ $0 }) + source.tiles {
        var local = reference
        for scheme in ["mbtiles://", "pmtiles://", "file://"] where local.hasPrefix(scheme) {
          local = String(local.dropFirst(scheme.count))
        }
        guard !local.contains("://") else { continue }
        if let brace = local.firstIndex(of: "{") { local = String(local[..<brace]) }
        add(Scene.absolutePath(local, against: dataRoot), as: "a source of \(path)")
      }
    }
  }

  /// Adds the files the process holds open (the tile archives a map reads), from `/proc/self/fd`.
  mutating func addOpenFiles() {
    guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
    for descriptor in descriptors {
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + descriptor),
        target.hasPrefix("/"), !target.hasPrefix("/dev/"), !target.hasPrefix("/proc/")
      else { continue }
      var status = stat()
      guard stat(target, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
      add(target, as: target)
    }
  }

  /// Throws when `path` (written by `option`) is one of the inputs.
  func check(_ path: String, option: String) throws(CommandFailure) {
    if let identity = Identity(path), let input = inputs[identity] {
      throw CommandFailure("\(option) \(path) is also an input (\(input)): refusing to replace it")
    }
  }
}
