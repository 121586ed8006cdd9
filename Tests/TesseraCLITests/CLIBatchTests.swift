import Foundation
import TesseraImage
import TesseraJSON
import Testing

@Suite struct CLIBatchTests {
  /// Demo-city cameras; the second and third differ only in camera (the thread keeps its map).
  static let cameras = [
    #""camera": {"latitude": 43.7384, "longitude": 7.4246, "zoom": 15}"#,
    #""camera": {"latitude": 43.7390, "longitude": 7.4250, "zoom": 16, "bearing": 40, "viewingAngle": 50}"#,
    #""camera": {"latitude": 43.7370, "longitude": 7.4230, "zoom": 15.5, "bearing": 300, "viewingAngle": 30}"#,
  ]

  @Test func batchImagesMatchSingleRendersOnEveryThreadCount() throws {
    let directory = try temporaryDirectory()
    try #"{"size": {"width": 96, "height": 72}, "mapType": "normal"}"#.write(
      toFile: "\(directory)/base.json", atomically: true, encoding: .utf8)
    var lines: [String] = []
    for (index, camera) in CLIBatchTests.cameras.enumerated() {
      try "{\"size\": {\"width\": 96, \"height\": 72}, \"mapType\": \"normal\", \(camera)}".write(
        toFile: "\(directory)/single\(index).json", atomically: true, encoding: .utf8)
      let single = CapturedRun([
        "render", "--scene", "\(directory)/single\(index).json", "--output", "\(directory)/single\(index).png",
        "--gpu", "surfaceless",
      ])
      #expect(single.status == 0, "\(single.error)")
      // Inline scenes and scenes starting from a file, repeated so threads reuse their maps.
      lines.append("{\"output\": \"inline\(index).png\", \"size\": {\"width\": 96, \"height\": 72}, \(camera)}")
      lines.append("{\"scene\": \"base.json\", \"output\": \"based\(index).png\", \(camera)}")
    }
    try (lines + lines.reversed().map { $0.replacingOccurrences(of: ".png", with: "-again.png") })
      .joined(separator: "\n").write(toFile: "\(directory)/jobs.jsonl", atomically: true, encoding: .utf8)
    // Four threads share the two display lanes, their devices taking turns.
    for threads in ["1", "2", "4"] {
      let run = CapturedRun([
        "render", "--batch", "\(directory)/jobs.jsonl", "--threads", threads, "--report", "\(directory)/report.json",
        "--gpu", "surfaceless",
      ])
      #expect(run.status == 0, "\(run.error)")
      #expect(run.out.contains("rendered 12 of 12 images"))
      #expect(run.out.contains("resident memory (MiB) by images done: 0: "))
      for index in CLIBatchTests.cameras.indices {
        let expected = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/single\(index).png"))
        for name in ["inline\(index)", "based\(index)", "inline\(index)-again", "based\(index)-again"] {
          #expect(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name).png")) == expected, "\(name)")
        }
      }
      let report = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/report.json"))))
      #expect(report["images"] == 12)
      #expect(report["threads"]?.number == Double(threads))
      #expect((report["images_per_second"]?.number ?? 0) > 0)
      #expect((report["resident_mib"]?.array?.count ?? 0) >= 2)
    }
  }

  @Test func badLinesAreNamedAndTheOthersStillRender() throws {
    let directory = try temporaryDirectory()
    let jobs = [
      #"{"output": "good.png", "size": {"width": 32, "height": 32}, "mapType": "none"}"#,
      #"{"size": {"width": 32, "height": 32}}"#,
      "",
      #"{"output": "bad.png", "camera": {"latitude": 1, "longitude": 0, "zoom": "high"}}"#,
      #"[1, 2"#,
      #"{"output": "missing.png", "scene": "nowhere.json"}"#,
      #"{"output": "huge.png", "size": {"width": 1e23, "height": 10}}"#,
      #"{"output": "wide.png", "size": {"width": 20000, "height": 10}, "mapType": "none"}"#,
      #"{"output": "nostyle.png", "style": "/nonexistent/style.json"}"#,
      #"{"output": "zindex.png", "mapType": "none", "markers": [{"position": [0, 0], "zIndex": 1e300}]}"#,
      #"{"output": "good2.png", "size": {"width": 16, "height": 16}, "mapType": "none"}"#,
    ]
    try jobs.joined(separator: "\n").write(toFile: "\(directory)/jobs.jsonl", atomically: true, encoding: .utf8)
    let run = CapturedRun(["render", "--batch", "\(directory)/jobs.jsonl", "--gpu", "surfaceless"])
    #expect(run.status == 1)
    #expect(run.error.contains("jobs.jsonl line 2: field 'output'"), "\(run.error)")
    #expect(run.error.contains("jobs.jsonl line 4: ") && run.error.contains("zoom"), "\(run.error)")
    #expect(run.error.contains("jobs.jsonl line 5: "), "\(run.error)")
    #expect(run.error.contains("jobs.jsonl line 6: cannot read \(directory)/nowhere.json"), "\(run.error)")
    // Invalid in any way, including sizes no integer or no render target can hold, a line
    // fails alone, named by its number.
    #expect(run.error.contains("jobs.jsonl line 7: ") && run.error.contains("pixels a side"), "\(run.error)")
    #expect(run.error.contains("line 8 (") && run.error.contains("16384"), "\(run.error)")
    #expect(run.error.contains("line 9 (") && run.error.contains("/nonexistent/style.json"), "\(run.error)")
    #expect(run.error.contains("line 10 (") && run.error.contains("zIndex"), "\(run.error)")
    #expect(run.out.contains("rendered 2 of 10 images"))
    #expect(FileManager.default.fileExists(atPath: "\(directory)/good.png"))
    #expect(FileManager.default.fileExists(atPath: "\(directory)/good2.png"))
    #expect(CapturedRun(["render", "--batch", "\(directory)/jobs.jsonl", "--output", "x.png"]).status == 2)
    #expect(CapturedRun(["render", "--threads", "2", "--output", "x.png"]).status == 2)
    #expect(CapturedRun(["render", "--batch", "\(directory)/jobs.jsonl", "--threads", "0"]).status == 2)
  }
}
