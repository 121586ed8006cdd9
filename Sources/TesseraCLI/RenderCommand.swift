import Foundation
import Tessera
import TesseraImage

/// `tessera render`: draws a map to an image file.
enum RenderCommand: Command {
  static let name = "render"
  static let summary = "draw a map (flags or a scene file) to a PNG, JPEG or WebP image"
  static let options: [OptionSpec] =
    MapSettings.cameraOptions + [.value("scene"), .value("output"), .value("format"), .value("quality")]

  static let help = """
    usage: tessera render [--scene FILE.json] [camera options] --output FILE [--format png|jpeg|webp]

    Draws a map headlessly and writes the image. Flags override the scene file's values.

    options:
      --scene FILE.json       a scene file (size, scale, camera, padding, background, …)
    \(MapSettings.cameraHelp)
      --output FILE           where to write the image (required)
      --format F              png, jpeg or webp (default: from the output's extension, else png)
      --quality Q             1–100 for jpeg (default 90) and webp (default: lossless)
      --help                  show this text

    PNG output is fast-compressed (zlib level 1, Up filter, RLE strategy); colours are straight
    (not premultiplied) alpha. JPEG has no alpha: transparent parts are composited over white.

    example:
      tessera render --center 43.7384,7.4246 --zoom 16 --tilt 60 --bearing 30 \\
                     --size 1024x768 --output monaco.png
    """

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard arguments.positionals.isEmpty else {
      throw UsageError("unexpected argument '\(arguments.positionals[0])' (see tessera render --help)")
    }
    guard let output = arguments.value("output") else {
      throw UsageError("--output FILE is required (see tessera render --help)")
    }
    let format = try outputFormat(arguments, output: output)
    let quality = try arguments.value("quality").map { text throws(UsageError) in
      try ValueParsers.integer(text, option: "quality", range: 1...100)
    }
    let settings = try MapSettings(arguments, scenePath: arguments.value("scene"))
    for warning in settings.warnings { console.printError("tessera render: warning: \(warning)") }
    let map = try Map(options: settings.options, gpu: settings.gpu)
    let snapshot = try map.snapshot()
    let bytes = try ImageCodec.encode(snapshot.image, as: format, quality: quality)
    try FileOutput.write(bytes, to: output)
    console.print(
      "\(output): \(snapshot.image.width)x\(snapshot.image.height) \(format.rawValue), "
        + "\(snapshot.statistics.drawCalls) draw calls, \(bytes.count) bytes")
    return 0
  }

  static func outputFormat(_ arguments: ParsedArguments, output: String) throws(UsageError) -> ImageFormat {
    if let name = arguments.value("format") {
      guard let format = ImageFormat(name: name) else {
        throw UsageError("--format: '\(name)' is not one of png, jpeg, webp")
      }
      return format
    }
    return ImageFormat.fromExtension(of: output) ?? .png
  }
}
