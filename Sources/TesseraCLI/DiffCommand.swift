import TesseraImage

/// `tessera diff`: compares two images pixel by pixel.
enum DiffCommand: Command {
  static let name = "diff"
  static let summary = "compare two images (YIQ distance per pixel) and write a diff image"
  static let options: [OptionSpec] = [
    .value("threshold"), .value("diff"), .value("allowed"), .flag("include-aa"),
  ]

  static let help = """
    usage: tessera diff A.png B.png [--threshold T] [--allowed FRACTION] [--diff OUT.png] [--include-aa]

    Compares two images of the same size in the manner of pixelmatch: a pixel differs when the
    YIQ colour distance (both blended over white) exceeds the threshold. Prints the counts;
    exits 1 when the fraction of differing pixels exceeds --allowed (or the sizes differ).

    options:
      --threshold T           per-pixel threshold 0–1 (default 0.1285, MapLibre's)
      --allowed FRACTION      fraction of differing pixels still accepted (default 0)
      --diff OUT.png          write a diff image (differences red, anti-aliasing yellow)
      --include-aa            count anti-aliased pixels as differences (default: excused)
      --help                  show this text
    """

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let paths = try arguments.requirePositionals(["A.png", "B.png"])
    let threshold =
      try arguments.value("threshold").map { text throws(UsageError) in
        try ValueParsers.number(text, option: "threshold")
      } ?? 0.1285
    guard (0...1).contains(threshold) else { throw UsageError("--threshold must be in 0...1") }
    let allowed =
      try arguments.value("allowed").map { text throws(UsageError) in
        try ValueParsers.number(text, option: "allowed")
      } ?? 0
    guard (0...1).contains(allowed) else { throw UsageError("--allowed must be in 0...1") }
    if let diffPath = arguments.value("diff") {
      try FileOutput.refuseOverwriting([("--diff", diffPath)], inputs: [("A.png", paths[0]), ("B.png", paths[1])])
    }
    let a = try ImageCodec.decode(try FileOutput.read(paths[0]), source: paths[0])
    let b = try ImageCodec.decode(try FileOutput.read(paths[1]), source: paths[1])
    let comparison = PixelDiff(threshold: threshold, includeAntialiasing: arguments.has("include-aa"))
    let result: PixelDiff.Result
    do {
      result = try comparison.compare(a, b)
    } catch {
      throw CommandFailure("\(paths[0]) and \(paths[1]): \(error)")
    }
    if let diffPath = arguments.value("diff") {
      try FileOutput.write(try PNGCodec.encode(result.diffImage), to: diffPath)
    }
    let fraction = result.differentFraction
    console.print(
      "different pixels: \(result.differentPixels) of \(result.totalPixels) (fraction \(fraction)); "
        + "anti-aliased: \(result.antialiasedPixels); threshold \(threshold); allowed \(allowed)")
    return fraction > allowed ? 1 : 0
  }
}
