import Foundation
import Tessera
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// `tessera render`: draws a map (or a camera animation) to image files.
enum RenderCommand: Command {
  static let name = "render"
  static let summary = "draw a map (flags or a scene file) to a PNG, JPEG or WebP image, or an animation"
  static let options: [OptionSpec] =
    MapSettings.cameraOptions + [
      .value("scene"), .value("output"), .value("format"), .value("quality"), .value("animate-to"), .value("animate"),
      .value("animate-bearing"), .value("animate-tilt"),
      .value("duration"), .value("fps"), .value("easing"), .value("accessibility"), .value("batch"),
      .value("threads"), .value("report"),
    ]

  static let help = """
    usage: tessera render [--scene FILE.json] [camera options] --output FILE [--format png|png8|jpeg|webp|gif]
           tessera render … --animate-to LAT,LNG,ZOOM[,BEARING[,TILT]] [--duration S] [--fps N] --output anim.png
           tessera render --batch jobs.jsonl [--threads N] [--report OUT.json] [--gpu SEL]

    Draws a map headlessly and writes the image. Flags override the scene file's values.

    options:
      --scene FILE.json       a scene file (size, scale, camera, padding, background, …)
    \(MapSettings.cameraHelp)
      --output FILE           where to write the image (required)
      --format F              png, png8 (a palette of 256 colours), jpeg, webp or gif (default:
                              from the output's extension, else png)
      --quality Q             1–100 for jpeg (default 90) and webp (default: lossless)
      --accessibility OUT.json  also write the visible markers as accessibility elements
                              (label, title, snippet, on-screen frame in points; the open
                              info window last, with "infoWindow": true)
      --help                  show this text

    animation (or the scene's "animation" section):
      --animate-to CAMERA     animate from the camera to LAT,LNG,ZOOM[,BEARING[,TILT]]
      --animate UPDATE        animate to the camera a camera update gives (same forms as --update)
      --animate-bearing B     turn the camera to bearing B (the short way round), nothing else
      --animate-tilt T        tilt the camera to T degrees, nothing else
      --duration S            seconds (default 1)
      --fps N                 frames per second (default 30)
      --easing E              easeInOut (default) or linear
      An animation writes an animated PNG to --output and every frame as a numbered PNG beside
      it (anim.png → anim-0000.png, anim-0001.png, …). Zoom and tilt change linearly in eased
      time, the bearing turns the short way, the target moves straight in Mercator space.

    batch (many images in one process):
      --batch FILE.jsonl      one job per line: a scene object (the fields of a scene file) plus
                              "output" and optionally "format"; or {"scene": "FILE.json", …}
                              starting from a scene file with the line's fields replacing its
                              own (e.g. only "camera"). Relative paths resolve against the
                              jobs file's folder.
      --threads N             rendering threads, each with its own GL context (default: cores);
                              all share one cache of decoded tiles, and a thread keeps its map
                              (and the geometry on the GPU) while jobs differ only in camera
      --report OUT.json       write images/s and resident memory by images done
      Prints images per second and the resident-memory curve; a job that fails is reported
      with its line and the others still run (exit status 1 when any failed).

    PNG output is fast-compressed (Up filter, runs and repeated pixels); colours are straight
    (not premultiplied) alpha. JPEG has no alpha: transparent parts are composited over white.

    examples:
      tessera render --center 43.7384,7.4246 --zoom 16 --tilt 60 --bearing 30 \\
                     --size 1024x768 --output monaco.png
      tessera render --center 43.7384,7.4246 --zoom 13 --animate-to 43.7384,7.4246,16,90,60 \\
                     --duration 2 --fps 15 --output flight.png
    """

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard arguments.positionals.isEmpty else {
      throw UsageError("unexpected argument '\(arguments.positionals[0])' (see tessera render --help)")
    }
    if let jobsPath = arguments.value("batch") { return try BatchCommand.run(jobsPath, arguments, console: console) }
    for option in ["threads", "report"] where arguments.value(option) != nil {
      throw UsageError("--\(option) needs --batch")
    }
    guard let output = arguments.value("output") else {
      throw UsageError("--output FILE is required (see tessera render --help)")
    }
    try FileOutput.refuseOverwriting(
      [("--output", output)] + (arguments.value("accessibility").map { [("--accessibility", $0)] } ?? []),
      inputs: arguments.value("scene").map { [("--scene", $0)] } ?? [])
    var encoding = try outputFormat(arguments, output: output)
    let format = encoding.format
    let quality = try arguments.value("quality").map { text throws(UsageError) in
      try ValueParsers.integer(text, option: "quality", range: 1...100)
    }
    let settings = try MapSettings(arguments, scenePath: arguments.value("scene"), command: "render", console: console)
    let animation = try animationSettings(arguments, scene: settings.scene)
    if animation != nil && format != .png {
      throw UsageError("animations are written as animated PNG: use a .png output or --format png")
    }
    let map = try settings.makeMap(console: console, command: "render")
    ProcessEnd.keepUntilExit(map)
    // Everything read is known now (the scene's files, the open tile archives).
    var outputs = OutputGuard(arguments: arguments, outputOptions: ["output", "accessibility"])
    outputs.add(settings.reads)
    outputs.addOpenFiles()
    try outputs.check(output, option: "--output")
    if let animation {
      try renderAnimation(animation, map: map, output: output, outputs: outputs, console: console)
      return 0
    }
    let accessibilityPath = arguments.value("accessibility")
    if let accessibilityPath { try outputs.check(accessibilityPath, option: "--accessibility") }
    if accessibilityPath != nil { map.accessibilityElementsHidden = false }
    let snapshot = try map.snapshot()
    if let accessibilityPath {
      let elements: [JSONValue] = snapshot.accessibilityElements.map { element in
        var object = JSONObject()
        object["kind"] = .string(element.kind)
        if let label = element.label { object["label"] = .string(label) }
        if let title = element.title { object["title"] = .string(title) }
        if let snippet = element.snippet { object["snippet"] = .string(snippet) }
        if element.isInfoWindow { object["infoWindow"] = true }
        if element.isOverlay { object["overlay"] = true }
        let frame = element.frame
        object["frame"] = [
          "x": .number((frame.x * 100).rounded() / 100), "y": .number((frame.y * 100).rounded() / 100),
          "width": .number((frame.width * 100).rounded() / 100),
          "height": .number((frame.height * 100).rounded() / 100),
        ]
        return .object(object)
      }
      try FileOutput.write(Array(JSONValue.array(elements).serialized(pretty: true).utf8), to: accessibilityPath)
    }
    for warning in snapshot.warnings { console.printError("tessera render: warning: \(warning)") }
    encoding.quality = quality
    let bytes = try encoding.encode(snapshot.image)
    try FileOutput.write(bytes, to: output)
    console.print(
      "\(output): \(snapshot.image.width)x\(snapshot.image.height) \(format.rawValue), "
        + "\(snapshot.statistics.drawCalls) draw calls, \(bytes.count) bytes")
    return 0
  }

  static func outputFormat(_ arguments: ParsedArguments, output: String) throws(UsageError) -> ImageEncoding {
    if let name = arguments.value("format") {
      guard let encoding = ImageEncoding(name: name) else {
        throw UsageError("--format: '\(name)' is not one of \(ImageEncoding.names)")
      }
      return encoding
    }
    return ImageEncoding(ImageFormat.fromExtension(of: output) ?? .png)
  }

  /// The animation asked for by flags (which override the scene's), or nil.
  static func animationSettings(_ arguments: ParsedArguments, scene: Scene?) throws -> SceneAnimation? {
    var animation = scene?.animation
    if let text = arguments.value("animate-to") {
      do {
        animation = SceneAnimation(destination: .camera(try Camera(text: text)))
      } catch {
        throw UsageError("--animate-to: \(error)")
      }
    }
    let destinations = ["animate-to", "animate", "animate-bearing", "animate-tilt"].filter {
      arguments.value($0) != nil
    }
    guard destinations.count <= 1 else {
      throw UsageError("give one of --animate-to, --animate, --animate-bearing, --animate-tilt")
    }
    if let text = arguments.value("animate") {
      animation = SceneAnimation(destination: .update(try ValueParsers.update(text, option: "animate")))
    }
    if let text = arguments.value("animate-bearing") {
      animation = SceneAnimation(destination: .bearing(try ValueParsers.number(text, option: "animate-bearing")))
    }
    if let text = arguments.value("animate-tilt") {
      animation = SceneAnimation(destination: .viewingAngle(try ValueParsers.number(text, option: "animate-tilt")))
    }
    let timing = ["duration", "fps", "easing"].filter { arguments.value($0) != nil }
    guard var result = animation else {
      if let first = timing.first { throw UsageError("--\(first) needs an animation (--animate-to, --animate, …)") }
      return nil
    }
    if let text = arguments.value("duration") {
      result.duration = try ValueParsers.number(text, option: "duration")
      guard (0...600).contains(result.duration) else { throw UsageError("--duration must be 0...600 seconds") }
    }
    if let text = arguments.value("fps") {
      result.framesPerSecond = try ValueParsers.number(text, option: "fps")
      guard result.framesPerSecond > 0, result.framesPerSecond <= 240 else {
        throw UsageError("--fps must be more than 0 and at most 240")
      }
    }
    if let text = arguments.value("easing") {
      guard let easing = CameraAnimation.Easing(rawValue: text) else {
        throw UsageError("--easing: '\(text)' is not one of easeInOut, linear")
      }
      result.easing = easing
    }
    return result
  }

  /// Renders every frame to a numbered PNG beside `output` and the whole to an APNG at `output`.
  static func renderAnimation(
    _ settings: SceneAnimation, map: Map, output: String, outputs: OutputGuard, console: Console
  ) throws {
    let animation = try settings.animation(from: map.state)
    let stem = output.hasSuffix(".png") ? String(output.dropLast(4)) : output
    var writer = AnimatedPNGWriter(framesPerSecond: settings.framesPerSecond)
    var count = 0
    try map.render(animation, framesPerSecond: settings.framesPerSecond) { frame in
      let number = String(frame.index)
      let name = "\(stem)-\(String(repeating: "0", count: max(0, 4 - number.count)))\(number).png"
      try outputs.check(name, option: "--output (frame)")
      try FileOutput.write(try PNGCodec.encode(frame.snapshot.image), to: name)
      try writer.add(frame.snapshot.image)
      count += 1
    }
    let bytes = try writer.finish()
    try FileOutput.write(bytes, to: output)
    console.print(
      "\(output): animated PNG, \(count) frames at \(settings.framesPerSecond) fps over \(animation.duration) s, "
        + "\(bytes.count) bytes; frames \(stem)-0000.png …")
  }
}
