import Foundation
import Tessera
import TesseraData
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// Where `tessera tiles` puts tiles: an MBTiles archive (written as they come, resumable), a
/// PMTiles archive (written at the end) or a folder of Z/X/Y files.
final class TileSink {
  private enum Kind {
    case mbtiles(MBTilesWriter)
    case pmtiles(PMTilesWriter)
    case folder(String)
  }

  private let kind: Kind
  let format: ImageFormat

  init(output: String, format: ImageFormat) throws {
    self.format = format
    let lowered = output.lowercased()
    if lowered.hasSuffix(".mbtiles") {
      kind = .mbtiles(try MBTilesWriter(path: output))
    } else if lowered.hasSuffix(".pmtiles") {
      kind = .pmtiles(try PMTilesWriter(path: output, format: TileFormat(name: format.rawValue)))
    } else {
      do {
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
      } catch {
        throw CommandFailure("\(output): cannot make the folder: \(error.localizedDescription)")
      }
      guard FileManager.default.isWritableFile(atPath: output) else {
        throw CommandFailure("\(output): the folder is not writable")
      }
      kind = .folder(output)
    }
  }

  /// The file name extension of the tiles.
  var fileExtension: String { format == .jpeg ? "jpg" : format.rawValue }

  /// Whether the output already holds `tile` (PMTiles never does: it is written whole).
  func contains(_ tile: TileID) throws -> Bool {
    switch kind {
    case .mbtiles(let writer): return try writer.contains(tile)
    case .pmtiles: return false
    case .folder(let path):
      return FileManager.default.fileExists(atPath: "\(path)/\(tile.z)/\(tile.x)/\(tile.y).\(fileExtension)")
    }
  }

  func write(_ tiles: [(TileID, [UInt8])]) throws {
    guard !tiles.isEmpty else { return }
    switch kind {
    case .mbtiles(let writer): try writer.write(tiles.map { (tile: $0.0, data: $0.1) })
    case .pmtiles(let writer): try writer.write(tiles.map { (tile: $0.0, data: $0.1) })
    case .folder(let path):
      for (tile, data) in tiles {
        let folder = "\(path)/\(tile.z)/\(tile.x)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Written aside and renamed, so a stopped run never leaves half a tile.
        let file = "\(folder)/\(tile.y).\(fileExtension)"
        try Data(data).write(to: URL(fileURLWithPath: file), options: .atomic)
      }
    }
  }

  /// Writes the metadata (MBTiles rows, the PMTiles metadata object, a folder's
  /// `metadata.json`) and closes the archive.
  func finish(metadata: [(String, String)], bounds: (Double, Double, Double, Double)) throws {
    switch kind {
    case .mbtiles(let writer): try writer.setMetadata(metadata)
    case .pmtiles(let writer): try writer.finish(metadata: Self.json(metadata), bounds: bounds)
    case .folder(let path):
      try Data(Self.json(metadata).utf8).write(to: URL(fileURLWithPath: path + "/metadata.json"), options: .atomic)
    }
  }

  static func json(_ rows: [(String, String)]) -> String {
    var object = JSONObject()
    for (name, value) in rows { object[name] = .string(value) }
    return JSONValue.object(object).serialized()
  }
}

/// A progress line on standard error: tiles done of the total, tiles per second, time left.
/// On a terminal it is rewritten in place; otherwise a line every ten seconds.
final class Progress {
  let total: Int
  private(set) var done = 0
  private(set) var rendered = 0
  private let console: Console
  private let quiet: Bool
  private let start = Date()
  private var lastLine = Date.distantPast
  private let terminal = isatty(2) != 0

  init(total: Int, console: Console, quiet: Bool) {
    self.total = total
    self.console = console
    self.quiet = quiet
  }

  /// Counts tiles done (`rendered`: drawn now, rather than found in the output).
  func add(_ count: Int, rendered: Bool) {
    done += count
    if rendered { self.rendered += count }
    let now = Date()
    guard !quiet, now.timeIntervalSince(lastLine) >= (terminal ? 0.25 : 10) else { return }
    lastLine = now
    show(now)
  }

  func finish() {
    guard !quiet else { return }
    show(Date())
    if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
  }

  private func show(_ now: Date) {
    let seconds = max(now.timeIntervalSince(start), 0.001)
    let rate = Double(rendered) / seconds
    let left = rate > 0 ? Double(total - done) / rate : 0
    let line = String(
      format: "%d/%d tiles (%.0f%%), %.1f tiles/s, %@ left", done, total,
      total > 0 ? 100 * Double(done) / Double(total) : 100, rate, Self.duration(left))
    if terminal {
      FileHandle.standardError.write(Data(("\r" + line + "   ").utf8))
    } else {
      console.printError(line)
    }
  }

  static func duration(_ seconds: Double) -> String {
    let whole = Int(clamping: seconds.rounded())
    return whole >= 3600
      ? String(format: "%dh%02dm", whole / 3600, whole / 60 % 60) : String(format: "%dm%02ds", whole / 60, whole % 60)
  }
}
