import Dispatch
import Foundation
import Synchronization
import Tessera
import TesseraData
import TesseraImage
import TesseraNumbers

/// `tessera tiles`: pre-renders the raster tiles of an area into MBTiles, PMTiles or a folder,
/// resumable, split over machines by shard; `tessera tiles merge` joins shards.
enum TilesCommand: Command {
  static let name = "tiles"
  static let summary = "pre-render raster tiles of an area to MBTiles, PMTiles or a folder; merge shards"
  static let options: [OptionSpec] =
    MapSettings.cameraOptions + [
      .value("bbox"), .value("geojson"), .value("zooms"), .value("tile-size"), .value("metatile"), .value("buffer"),
      .value("format"), .value("output"), .value("shard"), .value("threads"), .flag("quiet"),
    ]

  static let help = """
    usage: tessera tiles (--style S | --map-type T | map options) (--bbox W,S,E,N | --geojson AREA)
                         --zooms Z0-Z1 --output OUT.mbtiles|OUT.pmtiles|DIR [--tile-size 256|512]
                         [--scale 1-4] [--format png|jpeg|webp] [--metatile N] [--shard I/N]
           tessera tiles merge --output OUT.mbtiles|OUT.pmtiles IN.mbtiles…

    Renders every tile of the zooms that meets the area (XYZ scheme, rows from the north) the
    way `tessera serve` serves /styles/{id}/{z}/{x}/{y}: a metatile (N×N tiles, default 2) per
    frame with a buffer, no label cut at a tile edge (labels crossing a metatile's edge are
    left out on both sides), extrusions flat.

    Output: an .mbtiles archive is written as tiles come (each metatile in one transaction; a
    run that stops leaves a valid archive, and running the same command again renders only the
    tiles missing); identical tiles are stored once. A .pmtiles archive is written at the end,
    its tiles in Hilbert order (PMTiles cannot be appended to: resume through MBTiles and
    merge). Any other output is a folder of Z/X/Y.EXT files (existing files are kept).

    Shards: --shard I/N renders only the metatiles whose hash falls to shard I of N, spread over
    the area (not stripes), so N machines share the work evenly; --shard auto reads
    JOB_COMPLETION_INDEX and JOB_COMPLETIONS (a Kubernetes Indexed Job). Merge the shards'
    MBTiles with `tessera tiles merge`.

    options:
      --bbox W,S,E,N          the area: a box in degrees
      --geojson FILE          the area: the Polygon/MultiPolygon geometries of a GeoJSON file
      --zooms Z0-Z1           tile zooms (or one zoom Z), within 0…22 (0…21 for 512-point tiles)
      --tile-size 256|512     tile side in points (default 256)
      --scale N               pixels per point, 1…4 (default 1; 2 gives @2x tiles)
      --format F              png (default), jpeg or webp
      --metatile N            tiles per metatile side: 1, 2 (default), 4, 8 or 16
      --buffer P              points rendered around a metatile and dropped (default 64)
      --shard I/N | auto      this machine's share
      --threads N             render threads (default: all cores)
      --quiet                 no progress line
      map options as for `tessera render` (--style, --data-root, --map-type, --language, …)
    """

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    if arguments.positionals.first == "merge" { return try merge(arguments, console: console) }
    guard arguments.positionals.isEmpty else {
      throw UsageError("'tessera tiles' takes no arguments but 'merge' (found '\(arguments.positionals[0])')")
    }
    guard let output = arguments.value("output") else { throw UsageError("--output is required") }
    let zooms = try zoomRange(arguments.value("zooms"))
    var tileSettings = TileRenderer.Settings()
    if let text = arguments.value("tile-size") {
      tileSettings.tileSize = try ValueParsers.integer(text, option: "tile-size", range: 256...512)
    }
    if let text = arguments.value("scale") {
      tileSettings.scale = try ValueParsers.integer(text, option: "scale", range: 1...4)
    }
    if let text = arguments.value("metatile") {
      tileSettings.metatile = try ValueParsers.integer(text, option: "metatile", range: 1...16)
    }
    if let text = arguments.value("buffer") {
      tileSettings.buffer = try ValueParsers.integer(text, option: "buffer", range: 0...512)
    }
    do {
      try tileSettings.validate()
    } catch {
      throw UsageError(error.description)
    }
    guard zooms.upperBound <= tileSettings.maxZoom else {
      throw UsageError(
        "--zooms: \(tileSettings.tileSize)-point tiles go to zoom \(tileSettings.maxZoom) at most, found \(zooms.upperBound)"
      )
    }
    let format =
      try ImageFormat(name: arguments.value("format") ?? "png").flatMap {
        [.png, .jpeg, .webp].contains($0) ? $0 : nil
      }
      ?? { throw UsageError("--format: expected png, jpeg or webp, found '\(arguments.value("format") ?? "")'") }()
    let area = try self.area(arguments, zooms: zooms)
    let shard = try self.shard(arguments.value("shard"))
    let settings = try MapSettings(arguments, scenePath: nil, command: "tiles", console: console)
    let threads =
      try arguments.value("threads").map { text throws(UsageError) in
        try ValueParsers.integer(text, option: "threads", range: 1...256)
      } ?? ProcessInfo.processInfo.activeProcessorCount
    var outputs = OutputGuard(arguments: arguments, outputOptions: ["output"])
    outputs.add(settings.reads)
    if let style = settings.style { outputs.addSources(ofStyle: style.path, dataRoot: style.dataRoot) }
    outputs.addOpenFiles()
    try outputs.check(output, option: "--output")
    let sink = try TileSink(output: output, format: format)
    // Metatiles are drawn once each: smaller caches than an interactive map's keep a long run
    // bounded (GPU geometry per thread; decoded tiles shared).
    var template = settings.options
    template.gpuCacheBytes = min(template.gpuCacheBytes, 128 << 20)
    let set = TileJob.TileSet(
      template: template, stylePath: settings.style?.path, dataRoot: settings.style?.dataRoot,
      settings: tileSettings)
    let pool = try RenderPool(threads: threads, gpu: settings.gpu, tileCacheBytes: 128 << 20)
    defer { pool.shutdown() }
    let attribution = try TileRenderer(
      template: set.template, stylePath: set.stylePath, dataRoot: set.dataRoot, settings: tileSettings,
      device: GLDevice(gpu: settings.gpu)
    ).attribution()
    let metatiles = area.metatiles(size: tileSettings.metatile).lazy.filter { shard.owns($0) }
    // The total, counted lazily (the list is never held).
    var total = 0
    for metatile in metatiles { total += metatile.tiles.filter(area.contains).count }
    let progress = Progress(total: total, console: console, quiet: arguments.has("quiet"))
    let results = Mutex<[(Metatile, Result<[(TileID, [UInt8])], any Error>)]>([])
    let ready = DispatchSemaphore(value: 0)
    var pending = 0
    let renderStart = DispatchTime.now()
    var iterator = metatiles.makeIterator()
    var exhausted = false
    let limit = threads * 2
    while true {
      while !exhausted && pending < limit {
        guard let metatile = iterator.next() else {
          exhausted = true
          break
        }
        let wanted = metatile.tiles.filter(area.contains)
        let missing = try wanted.filter { !(try sink.contains($0)) }
        progress.add(wanted.count - missing.count, rendered: false)
        guard !missing.isEmpty else { continue }
        pending += 1
        pool.submit(TileJob(set: set, metatile: metatile)) { result in
          let encoded = Result { () throws -> [(TileID, [UInt8])] in
            let images = try result.get()
            return try missing.map { ($0, try ImageCodec.encode(images[$0]!, as: format)) }
          }
          results.withLock { $0.append((metatile, encoded)) }
          ready.signal()
        }
      }
      guard pending > 0 else { break }
      ready.wait()
      for (metatile, result) in results.withLock({ list in
        defer { list.removeAll() }; return list
      }) {
        pending -= 1
        switch result {
        case .success(let tiles):
          try sink.write(tiles)
          progress.add(tiles.count, rendered: true)
        case .failure(let error):
          throw CommandFailure("metatile \(metatile): \(error)")
        }
      }
    }
    let (west, south, east, north) = area.bounds
    try sink.finish(
      metadata: [
        ("name", (output as NSString).lastPathComponent), ("format", format == .jpeg ? "jpg" : format.rawValue),
        ("bounds", "\(west),\(south),\(east),\(north)"),
        ("center", "\((west + east) / 2),\((south + north) / 2),\(zooms.lowerBound)"),
        ("minzoom", "\(zooms.lowerBound)"), ("maxzoom", "\(zooms.upperBound)"), ("type", "baselayer"),
        ("attribution", attribution ?? ""), ("tileSize", "\(tileSettings.tileSize * tileSettings.scale)"),
      ], bounds: (west, south, east, north))
    progress.finish()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - renderStart.uptimeNanoseconds) / 1e9
    console.print(
      "\(output): \(progress.done) tiles (\(progress.rendered) rendered, \(progress.done - progress.rendered) already there), shard \(shard); "
        + String(format: "%.3f s rendering, %.1f tiles/s", seconds, Double(progress.rendered) / max(seconds, 1e-9)))
    return 0
  }

  static func zoomRange(_ text: String?) throws(UsageError) -> ClosedRange<Int> {
    guard let text else { throw UsageError("--zooms is required (Z0-Z1 or Z)") }
    let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
    guard (1...2).contains(parts.count), let low = parts[0], let high = parts.last!, 0 <= low, low <= high, high <= 22
    else { throw UsageError("--zooms: expected Z0-Z1 with 0 ≤ Z0 ≤ Z1 ≤ 22, found '\(text)'") }
    return low...high
  }

  static func area(_ arguments: ParsedArguments, zooms: ClosedRange<Int>) throws(UsageError) -> TileArea {
    do {
      switch (arguments.value("bbox"), arguments.value("geojson")) {
      case (let box?, nil):
        let values = try ValueParsers.numbers(box, count: 4, option: "bbox", form: "W,S,E,N")
        return try TileArea(west: values[0], south: values[1], east: values[2], north: values[3], zooms: zooms)
      case (nil, let path?):
        return try TileArea(rings: try GeoJSONArea.rings(path: path), zooms: zooms)
      default:
        throw UsageError("give the area with --bbox W,S,E,N or --geojson FILE (one of them)")
      }
    } catch let error as TileRenderError {
      throw UsageError("--bbox: \(error.description)")
    } catch let error as UsageError {
      throw error
    } catch {
      throw UsageError("\(error)")
    }
  }

  static func shard(_ text: String?) throws(UsageError) -> TileShard {
    var value = text ?? "0/1"
    if value == "auto" {
      let environment = ProcessInfo.processInfo.environment
      guard let index = environment["JOB_COMPLETION_INDEX"], let count = environment["JOB_COMPLETIONS"] else {
        throw UsageError("--shard auto needs JOB_COMPLETION_INDEX and JOB_COMPLETIONS in the environment")
      }
      value = "\(index)/\(count)"
    }
    let parts = value.split(separator: "/").map { Int($0) }
    guard parts.count == 2, let index = parts[0], let count = parts[1] else {
      throw UsageError("--shard: expected I/N or auto, found '\(value)'")
    }
    do {
      return try TileShard(index: index, count: count)
    } catch {
      throw UsageError("--shard: \(error.description)")
    }
  }

  static func merge(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let inputs = Array(arguments.positionals.dropFirst())
    guard let output = arguments.value("output") else { throw UsageError("--output is required") }
    guard !inputs.isEmpty else { throw UsageError("'tessera tiles merge' needs the .mbtiles shards to merge") }
    var format = ImageFormat.png
    var bounds: (Double, Double, Double, Double)?
    var metadata: [(String, String)] = []
    var count = 0
    let sink: TileSink
    // The first shard's metadata describes the whole (the shards share it but the name).
    metadata = try MBTilesWriter.metadata(of: inputs[0])
    if let name = metadata.first(where: { $0.0 == "format" })?.1, let parsed = ImageFormat(name: name) {
      format = parsed
    }
    if let text = metadata.first(where: { $0.0 == "bounds" })?.1 {
      let values = text.split(separator: ",").compactMap { Double($0) }
      if values.count == 4 { bounds = (values[0], values[1], values[2], values[3]) }
    }
    var outputs = OutputGuard(arguments: arguments, outputOptions: ["output"])
    outputs.addOpenFiles()
    try outputs.check(output, option: "--output")
    sink = try TileSink(output: output, format: format)
    for input in inputs {
      var batch: [(TileID, [UInt8])] = []
      try MBTilesWriter.forEachTile(in: input) { tile, data in
        batch.append((tile, data))
        if batch.count == 512 {
          try sink.write(batch)
          count += batch.count
          batch.removeAll()
        }
      }
      try sink.write(batch)
      count += batch.count
    }
    metadata.removeAll { $0.0 == "name" }
    metadata.append(("name", (output as NSString).lastPathComponent))
    try sink.finish(metadata: metadata, bounds: bounds ?? (-180, -85.051_128_78, 180, 85.051_128_78))
    console.print("\(output): \(count) tiles from \(inputs.count) archives")
    return 0
  }
}
