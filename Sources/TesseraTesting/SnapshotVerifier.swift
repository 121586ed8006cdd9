import Foundation
import TesseraImage
import TesseraNumbers

/// When references are written.
public enum SnapshotRecording: Sendable, Equatable {
  /// Write a reference only where none exists (the test fails once, asking to look at it).
  case missing
  /// Rewrite every reference (the tests fail, asking to look at them).
  case all
  /// Never write: a missing reference is a failure.
  case never

  /// `record: true` → ``all``, `false` → ``never``, nil → ``all`` when `TESSERA_RECORD=1`,
  /// else ``missing``.
  public init(record: Bool?, environment: [String: String] = ProcessInfo.processInfo.environment) {
    switch record {
    case true?: self = .all
    case false?: self = .never
    case nil: self = environment["TESSERA_RECORD"] == "1" ? .all : .missing
    }
  }
}

/// What checking a snapshot against its reference found.
public struct SnapshotVerdict: Sendable {
  public enum Kind: Sendable, Equatable {
    /// Within the tolerance.
    case matched
    /// The reference was written (missing, or recording all): look at it.
    case recorded
    /// Beyond the tolerance, or of another size: the actual and diff images are written.
    case differs
    /// The reference could not be read or written.
    case failed
  }

  public let kind: Kind
  /// One paragraph for the test log: what happened, the numbers, where the images are.
  public let message: String
  public let location: SnapshotLocation
  /// The comparison, when the images could be compared.
  public let comparison: PixelDiff.Result?
  /// The images written for a failure (actual, then diff when compared).
  public let writtenImages: [String]

  /// Whether the test passes: the snapshot matched.
  public var passed: Bool { kind == .matched }
}

/// Checks rendered images against reference PNGs (see ``SnapshotLocation``), with no test
/// framework: ``assertMapSnapshot(of:named:tolerance:record:fileID:filePath:function:line:column:)``
/// reports what this finds.
public enum SnapshotVerifier {
  /// Compares `image` with the reference at `location`, records it as `recording` says, and
  /// writes the actual and diff images of a failure.
  public static func verify(
    _ image: RGBAImage, at location: SnapshotLocation, tolerance: SnapshotTolerance = .mapLibre,
    recording: SnapshotRecording = .missing, fonts: FontFingerprint? = nil
  ) -> SnapshotVerdict {
    let actual = image.straightAlpha()
    let reference = location.referencePath
    let exists = FileManager.default.fileExists(atPath: reference)
    if recording == .all || (!exists && recording == .missing) {
      if let problem = write(actual, to: reference) {
        return SnapshotVerdict(
          kind: .failed, message: "snapshot '\(location.name)': \(problem)", location: location, comparison: nil,
          writtenImages: [])
      }
      if let fonts { _ = FileManager.default.createFile(atPath: location.fontsPath, contents: Data(fonts.json.utf8)) }
      removeArtifacts(location)
      let why = exists ? "re-recorded" : "no reference yet: recorded"
      return SnapshotVerdict(
        kind: .recorded,
        message:
          "snapshot '\(location.name)' \(why) to \(reference); look at it, then run the test again"
          + (recording == .all ? " without TESSERA_RECORD=1 (or record: true)" : ""),
        location: location, comparison: nil, writtenImages: [reference])
    }
    guard exists, let data = FileManager.default.contents(atPath: reference) else {
      let written = write(actual, to: location.actualPath) == nil ? [location.actualPath] : []
      return SnapshotVerdict(
        kind: .failed,
        message:
          "snapshot '\(location.name)': no reference at \(reference) and recording is off; "
          + "the image is in \(location.actualPath)",
        location: location, comparison: nil, writtenImages: written)
    }
    let expected: RGBAImage
    do {
      expected = try PNGCodec.decode(Array(data), source: reference)
    } catch {
      return SnapshotVerdict(
        kind: .failed, message: "snapshot '\(location.name)': \(error)", location: location, comparison: nil,
        writtenImages: [])
    }
    let result: PixelDiff.Result
    do {
      result = try PixelDiff(threshold: tolerance.threshold).compare(actual, expected)
    } catch {
      let written = write(actual, to: location.actualPath) == nil ? [location.actualPath] : []
      return SnapshotVerdict(
        kind: .differs,
        message:
          "snapshot '\(location.name)' is \(actual.width)×\(actual.height) pixels, its reference \(reference) "
          + "\(expected.width)×\(expected.height); the image is in \(location.actualPath)",
        location: location, comparison: nil, writtenImages: written)
    }
    let numbers = describe(result, tolerance: tolerance)
    // The fonts the reference was drawn with, when it records them: other fonts fail with
    // their names, whatever the pixels say.
    if let fonts, let data = FileManager.default.contents(atPath: location.fontsPath) {
      if let recorded = FontFingerprint(json: Array(data)) {
        let differences = fonts.differences(from: recorded)
        if !differences.isEmpty {
          return SnapshotVerdict(
            kind: .differs,
            message:
              "snapshot '\(location.name)' was recorded with other fonts than this machine has: "
              + differences.joined(separator: "; ") + " (\(numbers)); install the fonts the reference was drawn "
              + "with (Debian's fonts-noto-core and fonts-noto-cjk of the same release) or re-record it with "
              + "TESSERA_RECORD=1",
            location: location, comparison: result, writtenImages: [])
        }
      }
    } else if let fonts, result.differentFraction <= tolerance.allowed, recording != .never {
      // A reference recorded before fonts were: its fonts are written down once it matches.
      _ = FileManager.default.createFile(atPath: location.fontsPath, contents: Data(fonts.json.utf8))
    }
    guard result.differentFraction > tolerance.allowed else {
      removeArtifacts(location)
      return SnapshotVerdict(
        kind: .matched, message: "snapshot '\(location.name)' matches: \(numbers)", location: location,
        comparison: result, writtenImages: [])
    }
    var written: [String] = []
    if write(actual, to: location.actualPath) == nil { written.append(location.actualPath) }
    if write(result.diffImage, to: location.diffPath) == nil { written.append(location.diffPath) }
    let folder = (location.actualPath as NSString).deletingLastPathComponent
    return SnapshotVerdict(
      kind: .differs,
      message:
        "snapshot '\(location.name)' differs from \(reference): \(numbers); actual and diff images in "
        + "\(folder) (\((location.actualPath as NSString).lastPathComponent), "
        + "\((location.diffPath as NSString).lastPathComponent): differences red, anti-aliasing yellow)",
      location: location, comparison: result, writtenImages: written)
  }

  /// "0.42% of pixels differ (1,234 of 292,000; allowed 0.015%, threshold 0.1285); largest
  /// difference 0.31 (a channel off by 87 of 255)".
  static func describe(_ result: PixelDiff.Result, tolerance: SnapshotTolerance) -> String {
    func percent(_ share: Double) -> String { String(format: "%.4g%%", share * 100) }
    return "\(percent(result.differentFraction)) of pixels differ (\(result.differentPixels) of "
      + "\(result.totalPixels); allowed \(percent(tolerance.allowed)), threshold \(tolerance.threshold)); "
      + "largest difference \(String(format: "%.3f", result.largestDistance)) "
      + "(a channel off by \(result.largestChannelDifference) of 255)"
  }

  /// Writes a PNG, making its folder; the problem, or nil.
  static func write(
    _ image: RGBAImage, to path: String, shared: String = SnapshotLocation.artifactsFolder(environment: [:])
  ) -> String? {
    if path.hasPrefix(shared + "/"), let problem = SnapshotLocation.claimPrivateFolder(shared) { return problem }
    do {
      let folder = (path as NSString).deletingLastPathComponent
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      let bytes = try PNGCodec.encode(image, settings: .small)
      guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
        return "cannot write \(path)"
      }
      return nil
    } catch {
      return "cannot write \(path): \(error)"
    }
  }

  /// Removes a location's failure images; none under the default folder unless it is this
  /// user's alone (``SnapshotLocation/claimPrivateFolder(_:)``).
  static func removeArtifacts(
    _ location: SnapshotLocation, shared: String = SnapshotLocation.artifactsFolder(environment: [:])
  ) {
    if location.actualPath.hasPrefix(shared + "/"), SnapshotLocation.claimPrivateFolder(shared, makes: false) != nil {
      return
    }
    try? FileManager.default.removeItem(atPath: location.actualPath)
    try? FileManager.default.removeItem(atPath: location.diffPath)
  }
}
