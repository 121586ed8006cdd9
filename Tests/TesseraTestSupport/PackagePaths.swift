import Foundation

/// Where things are relative to the package, found from this file's path (tests run from the
/// source tree, so no resource bundle is needed).
public enum PackagePaths {
  /// The package root (the folder holding Package.swift).
  public static let root: String = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
      url.deleteLastPathComponent()
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
        return url.path
      }
    }
    preconditionFailure("Package.swift not found above \(#filePath)")
  }()

  /// A path inside the package.
  public static func path(_ relative: String) -> String {
    root + "/" + relative
  }
}

/// The shared test data beside the project (`../shared`): present in CI, absent for someone who
/// only cloned the project. Tests that need it are disabled with ``skipReason`` when it is absent.
public enum SharedData {
  /// The `shared` folder, or nil when it is absent.
  public static let root: String? = {
    let candidate = URL(fileURLWithPath: PackagePaths.root + "/../shared").standardizedFileURL.path
    let marker = candidate + "/data/README.md"
    return FileManager.default.fileExists(atPath: marker) ? candidate : nil
  }()

  /// Whether `../shared/data` is present.
  public static var isAvailable: Bool { root != nil }

  /// Printed for tests skipped because the data is absent.
  public static let skipReason =
    "../shared/data is absent (it sits beside the project in CI; clones without it skip these tests)"

  /// A path inside `shared`; traps when the folder is absent (guard tests with isAvailable).
  public static func path(_ relative: String) -> String {
    guard let root else { preconditionFailure("../shared is absent") }
    return root + "/" + relative
  }

  /// The bytes of a file inside `shared`.
  public static func bytes(_ relative: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path(relative))))
  }
}
