import Foundation
import TesseraNumbers

/// Where a snapshot's reference and its failure images live.
///
/// References are PNG files in `__Snapshots__/<test file>/<name>.png` beside the test file
/// (`Tests/AppTests/MapTests.swift` → `Tests/AppTests/__Snapshots__/MapTests/<name>.png`), to be
/// committed with the tests. Failure images go to `<artifacts>/<test file>/<name>.actual.png`
/// and `.diff.png`, where `<artifacts>` is `$TESSERA_SNAPSHOT_ARTIFACTS` or, without it,
/// `tessera-snapshots-<user id>` in the temporary folder, a folder only that user may enter.
public struct SnapshotLocation: Sendable, Equatable {
  /// The snapshot's name, as given (or derived from the test's name).
  public let name: String
  /// The reference image.
  public let referencePath: String
  /// Where the image of a failed comparison is written.
  public let actualPath: String
  /// Where the picture of a failed comparison's differences is written.
  public let diffPath: String
  /// The fonts the reference was drawn with (``FontFingerprint``), beside it:
  /// `<name>.fonts.json`.
  public var fontsPath: String {
    (referencePath.hasSuffix(".png") ? String(referencePath.dropLast(4)) : referencePath) + ".fonts.json"
  }

  /// A location with its files given outright.
  public init(name: String, referencePath: String, actualPath: String, diffPath: String) {
    self.name = name
    self.referencePath = referencePath
    self.actualPath = actualPath
    self.diffPath = diffPath
  }

  /// The location of snapshot `name` of the test file at `testFilePath`.
  public init(name: String, testFilePath: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.name = name
    let file = URL(fileURLWithPath: testFilePath)
    let stem = file.deletingPathExtension().lastPathComponent
    let safe = SnapshotLocation.fileName(name)
    referencePath =
      file.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
      .appendingPathComponent(stem).appendingPathComponent(safe + ".png").path
    let artifacts = URL(fileURLWithPath: SnapshotLocation.artifactsFolder(environment: environment))
      .appendingPathComponent(stem)
    actualPath = artifacts.appendingPathComponent(safe + ".actual.png").path
    diffPath = artifacts.appendingPathComponent(safe + ".diff.png").path
  }

  /// The folder failure images go to: `$TESSERA_SNAPSHOT_ARTIFACTS`, else
  /// `tessera-snapshots-<user id>` in the temporary folder (claimed before anything is written
  /// to or removed from it: see ``claimPrivateFolder(_:)``).
  public static func artifactsFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
    if let folder = environment["TESSERA_SNAPSHOT_ARTIFACTS"], !folder.isEmpty { return folder }
    return URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("tessera-snapshots-\(getuid())").path
  }

  /// Makes `folder` (in a temporary folder other users share) a folder only this user may
  /// enter: made with mode 0700 when absent (unless `makes` is false, as before removing
  /// images: then an absent folder is refused too, there being nothing to remove), narrowed to
  /// 0700 when others may only read it; refused (the
  /// problem is returned) when it is a link, another user's or writable by others, as a folder
  /// made or opened by someone else would let them read the images or lead them elsewhere
  /// (through links they put inside).
  public static func claimPrivateFolder(_ folder: String, makes: Bool = true) -> String? {
    if makes, mkdir(folder, 0o700) != 0, errno != EEXIST {
      return "cannot make \(folder): \(String(cString: strerror(errno)))"
    }
    var status = stat()
    guard lstat(folder, &status) == 0 else { return "cannot read \(folder)" }
    guard status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid(), status.st_mode & 0o022 == 0 else {
      return "\(folder) is not a folder of this user's alone (a link, a file, another user's folder or "
        + "one others may write to): no failure images are written there or removed from it; set "
        + "TESSERA_SNAPSHOT_ARTIFACTS to a folder of your own"
    }
    if status.st_mode & 0o077 != 0, chmod(folder, 0o700) != 0 {
      return "cannot make \(folder) private: \(String(cString: strerror(errno)))"
    }
    return nil
  }

  /// A file name for a snapshot name: letters, digits, `-`, `_` and `.` kept, anything else
  /// `-`; a test function's parentheses dropped (`monacoAtNight()` → `monacoAtNight`).
  public static func fileName(_ name: String) -> String {
    var text = name
    if let open = text.firstIndex(of: "("), text.hasSuffix(")") { text = String(text[..<open]) }
    let kept = text.unicodeScalars.map { scalar -> Character in
      let allowed = CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII
      return allowed || "-_.".unicodeScalars.contains(scalar) ? Character(scalar) : "-"
    }
    let result = String(kept).trimmingCharacters(in: CharacterSet(charactersIn: ".-"))
    return result.isEmpty ? "snapshot" : result
  }
}
