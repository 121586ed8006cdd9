import Foundation
import Tessera
import TesseraNumbers
import Testing
import XCTest

/// Checks a scene's snapshot against its reference image, in Swift Testing and XCTest tests
/// alike.
///
/// The scene is rendered deterministically (see ``SnapshotRendering``) and compared with
/// `__Snapshots__/<test file>/<name>.png` beside the test file, by MapLibre's rule (see
/// ``SnapshotTolerance``). A missing reference is recorded and the test fails once ("recorded,
/// look at it"); `TESSERA_RECORD=1` in the environment, or `record: true`, re-records every
/// reference. A snapshot beyond the tolerance fails with the share of differing pixels and the
/// largest difference, and its actual and diff images are written (see ``SnapshotLocation``)
/// and, under Swift Testing, attached to the test.
///
/// - Parameters:
///   - scene: what to draw.
///   - name: the snapshot's name (its file name); the test function's name when nil. Give
///     each snapshot of a test its own name.
///   - tolerance: how different it may be; MapLibre's render-test rule by default.
///   - record: true re-records, false never records, nil follows `TESSERA_RECORD`.
/// - Returns: the verdict, for tests that look further.
@discardableResult
public func assertMapSnapshot(
  of scene: Scene, named name: String? = nil, tolerance: SnapshotTolerance = .mapLibre, record: Bool? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, function: String = #function,
  line: UInt = #line, column: UInt = #column
) -> SnapshotVerdict? {
  let source = SnapshotSource(fileID: fileID, filePath: filePath, line: line, column: column)
  let image: RGBAImage
  let fonts: FontFingerprint
  do {
    let map = try SnapshotRendering.map(scene: scene)
    image = try map.snapshot().image
    fonts = FontFingerprint(of: map)
  } catch {
    source.fail("snapshot '\(name ?? function)': cannot render the scene: \(error)")
    return nil
  }
  return check(image, name: name ?? function, tolerance: tolerance, record: record, fonts: fonts, source: source)
}

/// Checks a map's snapshot against its reference image (see
/// ``assertMapSnapshot(of:named:tolerance:record:fileID:filePath:function:line:column:)-scene``).
/// The map must draw on a snapshot device (make it with ``SnapshotRendering/map(scene:)`` or
/// on ``SnapshotRendering/makeDevice()``); another device fails the test, since its pixels
/// would not be the same on another machine.
@discardableResult
public func assertMapSnapshot(
  of map: Map, named name: String? = nil, tolerance: SnapshotTolerance = .mapLibre, record: Bool? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, function: String = #function,
  line: UInt = #line, column: UInt = #column
) -> SnapshotVerdict? {
  let source = SnapshotSource(fileID: fileID, filePath: filePath, line: line, column: column)
  let image: RGBAImage
  do {
    try SnapshotRendering.check(renderer: map.device.info.renderer)
    image = try map.snapshot().image
  } catch {
    source.fail("snapshot '\(name ?? function)': \(error)")
    return nil
  }
  return check(
    image, name: name ?? function, tolerance: tolerance, record: record, fonts: FontFingerprint(of: map),
    source: source)
}

/// Reports a verdict to the running test framework.
func check(
  _ image: RGBAImage, name: String, tolerance: SnapshotTolerance, record: Bool?, fonts: FontFingerprint?,
  source: SnapshotSource
) -> SnapshotVerdict {
  let location = SnapshotLocation(name: name, testFilePath: String(describing: source.filePath))
  let verdict = SnapshotVerifier.verify(
    image, at: location, tolerance: tolerance, recording: SnapshotRecording(record: record), fonts: fonts)
  if !verdict.passed {
    source.attach(verdict.writtenImages)
    source.fail(verdict.message)
  }
  return verdict
}

/// Where an assertion was made, and how to report to the framework running it.
struct SnapshotSource {
  let fileID: String
  let filePath: StaticString
  let line: UInt
  let column: UInt

  /// Whether a Swift Testing test is running (else XCTest is).
  var underSwiftTesting: Bool { Test.current != nil }

  func fail(_ message: String) {
    if underSwiftTesting {
      Issue.record(
        Comment(rawValue: message),
        sourceLocation: SourceLocation(
          fileID: fileID, filePath: String(describing: filePath), line: Int(line), column: Int(column)))
    } else {
      XCTFail(message, file: filePath, line: line)
    }
  }

  /// Attaches images to the Swift Testing test (XCTest on Linux has no attachments: the
  /// message names the files).
  func attach(_ paths: [String]) {
    guard underSwiftTesting else { return }
    for path in paths {
      guard let data = FileManager.default.contents(atPath: path) else { continue }
      Attachment.record(Array(data), named: (path as NSString).lastPathComponent)
    }
  }
}
