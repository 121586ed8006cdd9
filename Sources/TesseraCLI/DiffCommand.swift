import TesseraImage
import TesseraJSON
import TesseraNumbers

/// `tessera diff`: compares two images pixel by pixel.
enum DiffCommand: Command {
  static let name = "diff"
  static let summary = "compare two images (YIQ distance per pixel) and write a diff image"
  static let options: [OptionSpec] = [
    .value("threshold"), .value("diff"), .value("allowed"), .flag("include-aa"), .value("side-by-side"),
    .value("overlay"), .flag("json"),
  ]

  static let help = """
    usage: tessera diff A.png B.png [--threshold T] [--allowed FRACTION] [--diff OUT.png]
                        [--side-by-side OUT.png] [--overlay OUT.png] [--include-aa] [--json]

    Compares two images of the same size in the manner of pixelmatch: a pixel differs when the
    YIQ colour distance (both blended over white) exceeds the threshold. Prints the counts and
    the largest difference; exits 1 when the fraction of differing pixels exceeds --allowed
    (or the sizes differ), 0 otherwise. A is the actual image, B the expected one.

    options:
      --threshold T           per-pixel threshold 0–1 (default \(PixelDiff.mapLibreThreshold), MapLibre's)
      --allowed FRACTION      fraction of differing pixels still accepted (default 0)
      --diff OUT.png          write a diff image (B faded to grey, differences red,
                              anti-aliasing yellow)
      --side-by-side OUT.png  write A, B and the diff image side by side
      --overlay OUT.png       write B faded halfway to white with the differences painted on it
      --include-aa            count anti-aliased pixels as differences (default: excused)
      --json                  print the summary as one JSON object (passed, differentPixels,
                              totalPixels, fraction, antialiasedPixels, largestDistance,
                              largestChannelDifference, threshold, allowed, the images written)
      --help                  show this text
    """

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let paths = try arguments.requirePositionals(["A.png", "B.png"])
    let threshold =
      try arguments.value("threshold").map { text throws(UsageError) in
        try ValueParsers.number(text, option: "threshold")
      } ?? PixelDiff.mapLibreThreshold
    guard (0...1).contains(threshold) else { throw UsageError("--threshold must be in 0...1") }
    let allowed =
      try arguments.value("allowed").map { text throws(UsageError) in
        try ValueParsers.number(text, option: "allowed")
      } ?? 0
    guard (0...1).contains(allowed) else { throw UsageError("--allowed must be in 0...1") }
    let outputs = ["diff", "side-by-side", "overlay"].compactMap { name in
      arguments.value(name).map { ("--" + name, $0) }
    }
    try FileOutput.refuseOverwriting(outputs, inputs: [("A.png", paths[0]), ("B.png", paths[1])])
    let a = try ImageCodec.decode(try FileOutput.read(paths[0]), source: paths[0])
    let b = try ImageCodec.decode(try FileOutput.read(paths[1]), source: paths[1])
    let comparison = PixelDiff(threshold: threshold, includeAntialiasing: arguments.has("include-aa"))
    let result: PixelDiff.Result
    do {
      result = try comparison.compare(a, b)
    } catch {
      if arguments.has("json") {
        console.print(
          JSONValue.object(
            JSONObject([("passed", .bool(false)), ("error", .string("\(paths[0]) and \(paths[1]): \(error)"))])
          ).serialized())
        return 1
      }
      throw CommandFailure("\(paths[0]) and \(paths[1]): \(error)")
    }
    var written: [(String, JSONValue)] = []
    if let path = arguments.value("diff") {
      try FileOutput.write(try PNGCodec.encode(result.diffImage), to: path)
      written.append(("diff", .string(path)))
    }
    if let path = arguments.value("side-by-side") {
      try FileOutput.write(try PNGCodec.encode(result.sideBySide(actual: a, expected: b)), to: path)
      written.append(("sideBySide", .string(path)))
    }
    if let path = arguments.value("overlay") {
      try FileOutput.write(try PNGCodec.encode(result.overlay(expected: b)), to: path)
      written.append(("overlay", .string(path)))
    }
    let fraction = result.differentFraction
    let passed = fraction <= allowed
    if arguments.has("json") {
      let summary: [(String, JSONValue)] = [
        ("passed", .bool(passed)), ("differentPixels", .number(Double(result.differentPixels))),
        ("totalPixels", .number(Double(result.totalPixels))), ("fraction", .number(fraction)),
        ("antialiasedPixels", .number(Double(result.antialiasedPixels))),
        ("largestDistance", .number(result.largestDistance)),
        ("largestChannelDifference", .number(Double(result.largestChannelDifference))),
        ("threshold", .number(threshold)), ("allowed", .number(allowed)), ("images", .object(JSONObject(written))),
      ]
      console.print(JSONValue.object(JSONObject(summary)).serialized())
    } else {
      console.print(
        "different pixels: \(result.differentPixels) of \(result.totalPixels) (fraction \(fraction)); "
          + "anti-aliased: \(result.antialiasedPixels); largest difference "
          + "\(result.largestDistance) (a channel off by \(result.largestChannelDifference)); "
          + "threshold \(threshold); allowed \(allowed)")
    }
    return passed ? 0 : 1
  }
}
