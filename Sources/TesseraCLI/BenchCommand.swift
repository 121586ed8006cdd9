import Dispatch
import Tessera
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// `tessera bench`: times a scenario the way `shared/bench/peer/pymgl_render.py` times
/// MapLibre Native, and reports the same JSON fields plus Tessera's own.
enum BenchCommand: Command {
  static let name = "bench"
  static let summary = "time a scenario (first frame, warm frames, PNG encoding) as JSON"
  static let options: [OptionSpec] = [
    .value("frames"), .flag("orbit"), .value("json"), .value("png"), .value("gpu"), .flag("msaa"),
    .flag("stencil-clipping"),
  ]

  static let help = """
    usage: tessera bench SCENARIO.json [--frames N] [--orbit] [--json OUT.json] [--png OUT.png] [--gpu SEL]

    Renders a scenario and prints timings as one JSON line (also written to --json):
      first_ms      map creation (GL context, programs, data) to the first frame's pixels in memory
      warm_ms       median of N further frames, each drawn in full and read back (no encoding)
      warm_min_ms, warm_max_ms   fastest and slowest warm frame
      encode_ms     PNG encoding of one frame
      process_ms    from process start to the end of the run
      ends_without_teardown   whether the process then leaves without taking the map apart
                    (the executable's default; TESSERA_TEARDOWN=1 keeps the teardown)
      gl_renderer, gl_platform   what rendered; draw_calls, triangles of one frame
      phases        medians over the warm frames, in ms: tile_wait, tile_decode (summed over
                    the loader's threads), tessellation, upload, command_planning, text_shaping
                    (labels of new symbol tiles), text_collision (placing every symbol),
                    text_quads (their glyph and icon quads), plan (all the CPU preparation),
                    command_encoding, draw (GPU after the last call), readback;
                    image_encode is the PNG encoding
      first_phases  the same for the first frame, plus map_setup (style, sources, starting
                    the tiles) and gl_setup (waiting for EGL, which starts on another thread
                    meanwhile, and making the context)
    With --orbit the bearing turns 7° before each warm frame; the PNG is then drawn at the
    scenario's own bearing, as the MapLibre Native peer does.

    options:
      --frames N              warm frames (default 20)
      --orbit                 turn the bearing 7° before every warm frame
      --json OUT.json         also write the JSON here
      --png OUT.png           write the last frame here
      --gpu SEL               as for tessera render (default auto)
      --msaa                  4× multisampling
      --stencil-clipping      clip tiles with stencil masks in rotated and tilted views, as
                              on devices without clip planes (for comparisons)
      --help                  show this text
    """

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let processStart = ProcessClock.start
    let scenarioPath = try arguments.requirePositionals(["SCENARIO.json"])[0]
    let frames =
      try arguments.value("frames").map { text throws(UsageError) in
        try ValueParsers.integer(text, option: "frames", range: 1...100_000)
      } ?? 20
    try FileOutput.refuseOverwriting(
      [arguments.value("json").map { ("--json", $0) }, arguments.value("png").map { ("--png", $0) }].compactMap { $0 },
      inputs: [("the scenario", scenarioPath)])
    var settings = try MapSettings(arguments, scenePath: scenarioPath, command: "bench", console: console)
    // The peer's headless renders credit nothing: benchmark frames draw the map alone unless
    // --attribution asks otherwise.
    if !arguments.has("attribution") { settings.options.attribution = .off }
    let orbit = arguments.has("orbit")

    let createStart = DispatchTime.now()
    var setup = MapSettings.SetupTimings()
    let map = try settings.makeMap(console: console, command: "bench", device: nil, timings: &setup)
    ProcessEnd.keepUntilExit(map)
    if arguments.has("stencil-clipping") { map.clipsTilesByPlanes = false }
    var snapshot = try map.snapshot(alpha: .premultiplied)
    let firstMilliseconds = elapsed(since: createStart)
    let firstStatistics = snapshot.statistics
    let baseCamera = map.camera

    var warm: [Double] = []
    var phases: [FrameStatistics] = []
    for frame in 0..<frames {
      if orbit {
        map.camera = try baseCamera.withBearing(baseCamera.bearing + 7 * Double(frame + 1))
      }
      let start = DispatchTime.now()
      snapshot = try map.snapshot(alpha: .premultiplied)
      warm.append(elapsed(since: start))
      phases.append(snapshot.statistics)
    }
    if orbit {
      map.camera = baseCamera
      snapshot = try map.snapshot(alpha: .premultiplied)
    }
    let encodeStart = DispatchTime.now()
    let png = try PNGCodec.encode(snapshot.image)
    let encodeMilliseconds = elapsed(since: encodeStart)
    if let path = arguments.value("png") { try FileOutput.write(png, to: path) }

    var report = JSONObject()
    report["engine"] = .string("tessera \(TesseraCommandLine.version)")
    report["scenario"] = .string(settings.scene?.name ?? scenarioPath)
    report["width"] = .number(settings.options.width)
    report["height"] = .number(settings.options.height)
    report["scale"] = .number(settings.options.scale)
    report["first_ms"] = .number(rounded(firstMilliseconds))
    report["warm_ms"] = .number(rounded(median(warm)))
    report["warm_min_ms"] = .number(rounded(warm.min() ?? 0))
    report["warm_max_ms"] = .number(rounded(warm.max() ?? 0))
    report["encode_ms"] = .number(rounded(encodeMilliseconds))
    report["frames"] = .number(Double(frames))
    report["orbit"] = .bool(orbit)
    report["gl_renderer"] = .string(map.device.info.renderer)
    report["gl_platform"] = .string(map.device.info.platform)
    report["draw_calls"] = .number(Double(snapshot.statistics.drawCalls))
    report["triangles"] = .number(Double(snapshot.statistics.triangles))
    var warmPhases = phaseReport(phases)
    warmPhases["image_encode_ms"] = .number(rounded(encodeMilliseconds))
    report["phases"] = .object(warmPhases)
    var firstPhases = JSONObject([
      ("gl_setup_ms", .number(rounded(setup.gl))), ("map_setup_ms", .number(rounded(setup.map))),
    ])
    for (key, value) in phaseReport([firstStatistics]).pairs { firstPhases[key] = value }
    report["first_phases"] = .object(firstPhases)
    report["process_ms"] = .number(rounded(elapsed(since: processStart)))
    report["ends_without_teardown"] = .bool(ProcessEnd.keptCount > 0)
    let line = JSONValue.object(report).serialized()
    if let path = arguments.value("json") { try FileOutput.write(Array((line + "\n").utf8), to: path) }
    console.print(line)
    return 0
  }

  /// Per-phase medians of `frames`, in milliseconds, keyed as in the help text.
  static func phaseReport(_ frames: [FrameStatistics]) -> JSONObject {
    let phases: [(String, KeyPath<FrameStatistics, Double>)] = [
      ("tile_wait_ms", \.tileWaitMilliseconds), ("tile_decode_ms", \.tileDecodeMilliseconds),
      ("tessellation_ms", \.tessellationMilliseconds), ("upload_ms", \.uploadMilliseconds),
      ("command_planning_ms", \.commandPlanningMilliseconds), ("text_shaping_ms", \.textShapingMilliseconds),
      ("text_collision_ms", \.textCollisionMilliseconds), ("text_quads_ms", \.textQuadsMilliseconds),
      ("plan_ms", \.planMilliseconds),
      ("command_encoding_ms", \.commandEncodingMilliseconds), ("draw_ms", \.drawMilliseconds),
      ("readback_ms", \.readbackMilliseconds),
    ]
    return JSONObject(phases.map { name, path in (name, .number(rounded(median(frames.map { $0[keyPath: path] })))) })
  }

  static func elapsed(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
  }

  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  static func rounded(_ value: Double) -> Double {
    (value * 100).rounded() / 100
  }
}

extension Camera {
  /// This camera with another bearing (wrapped into [0, 360)).
  func withBearing(_ bearing: Double) throws -> Camera {
    try Camera(target: target, zoom: zoom, bearing: bearing, viewingAngle: viewingAngle)
  }
}

/// When the process started, for `process_ms`.
public enum ProcessClock {
  /// Read once, as early as `main` touches it.
  public static let start = DispatchTime.now()
}
