import Foundation
import TesseraTestSupport
import Testing

/// Outputs never destroy what they should not: links are never written through, files keep
/// their mode and their other names, special files and inputs are refused, and mistakes get a
/// message naming the path.
@Suite struct CLIOutputTests {
  func render(_ output: String, _ extra: [String] = []) -> CapturedRun {
    CapturedRun(["render", "--map-type", "none", "--size", "16x16", "--output", output] + extra)
  }

  func isPNG(_ path: String) -> Bool {
    (FileManager.default.contents(atPath: path) ?? Data()).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47])
  }

  @Test func symbolicLinksAreNeverWrittenThrough() throws {
    let folder = try temporaryDirectory()
    let target = folder + "/real.png"
    _ = FileManager.default.createFile(atPath: target, contents: Data("old".utf8))
    try FileManager.default.createSymbolicLink(atPath: folder + "/link.png", withDestinationPath: "real.png")
    let run = render(folder + "/link.png")
    #expect(run.status == 1)
    #expect(run.error.contains("it is a symbolic link; refusing to write through it"), "\(run.error)")
    #expect(FileManager.default.contents(atPath: target) == Data("old".utf8))
    // A dangling link too: it would create a file wherever it points.
    try FileManager.default.createSymbolicLink(atPath: folder + "/dangling.png", withDestinationPath: "/tmp/elsewhere")
    #expect(render(folder + "/dangling.png").status == 1)
    #expect(!FileManager.default.fileExists(atPath: "/tmp/elsewhere"))
  }

  @Test func replacedFilesKeepTheirModeAndHardLinks() throws {
    let folder = try temporaryDirectory()
    let path = folder + "/out.png"
    _ = FileManager.default.createFile(atPath: path, contents: Data("old".utf8))
    chmod(path, 0o600)
    #expect(render(path).status == 0)
    var status = stat()
    stat(path, &status)
    #expect(status.st_mode & 0o777 == 0o600)
    #expect(isPNG(path))
    // A second name for the same file sees the new contents.
    link(path, folder + "/other.png")
    #expect(render(path, ["--background", "red"]).status == 0)
    #expect(FileManager.default.contents(atPath: folder + "/other.png") == FileManager.default.contents(atPath: path))
  }

  @Test func specialFilesAreRefused() throws {
    let folder = try temporaryDirectory()
    let fifo = folder + "/pipe.png"
    mkfifo(fifo, 0o644)
    for (path, kind) in [(fifo, "a FIFO"), ("/dev/null", "a device"), (folder, "a folder")] {
      let run = render(path)
      #expect(run.status == 1)
      #expect(run.error.contains("cannot write \(path): it is \(kind), not a regular file"), "\(run.error)")
    }
    var status = stat()
    stat(fifo, &status)
    #expect(status.st_mode & S_IFMT == S_IFIFO, "the FIFO is still a FIFO")
  }

  @Test func missingFoldersAndEmptyNamesAreNamed() throws {
    let missing = render("/nonexistent-folder/out.png")
    #expect(missing.status == 1 && missing.error.contains("the folder /nonexistent-folder does not exist"))
    let empty = render("")
    #expect(empty.status == 1 && empty.error.contains("the output file name is empty"))
    #expect(!missing.error.contains("NSCocoaErrorDomain"))
  }

  @Test func outputsThatAreInputsAreRefused() throws {
    let folder = try temporaryDirectory()
    let scene = folder + "/scene.json"
    try Data(#"{"size": {"width": 16, "height": 16}, "mapType": "none"}"#.utf8).write(to: URL(fileURLWithPath: scene))
    let original = FileManager.default.contents(atPath: scene)
    let same = CapturedRun(["render", "--scene", scene, "--output", scene])
    #expect(same.status == 2 && same.error.contains("--output \(scene) is also --scene"))
    let accessibility = CapturedRun([
      "render", "--scene", scene, "--output", folder + "/a.png", "--accessibility", folder + "/a.png",
    ])
    #expect(accessibility.status == 2 && accessibility.error.contains("is also --output"))
    let jobs = folder + "/jobs.jsonl"
    try Data((#"{"scene": "scene.json", "output": "jobs.jsonl"}"# + "\n").utf8).write(to: URL(fileURLWithPath: jobs))
    let batch = CapturedRun(["render", "--batch", jobs, "--report", jobs])
    #expect(batch.status == 2 && batch.error.contains("--report \(jobs) is also --batch"))
    let job = CapturedRun(["render", "--batch", jobs, "--threads", "1"])
    #expect(job.status == 1 && job.error.contains("line 1") && job.error.contains("refusing to replace"))
    let diff = CapturedRun(["diff", folder + "/a.png", folder + "/b.png", "--diff", folder + "/a.png"])
    #expect(diff.status == 2 && diff.error.contains("--diff"))
    #expect(FileManager.default.contents(atPath: scene) == original)
    #expect(String(decoding: FileManager.default.contents(atPath: jobs) ?? Data(), as: UTF8.self).contains("scene"))
  }

  @Test func missingOptionValuesAreNamed() {
    let run = CapturedRun(["render", "--zoom", "--output", "x.png"])
    #expect(run.status == 2 && run.error.contains("option '--zoom' needs a value, found option '--output'"))
  }

  /// Padding that leaves no room in the view (given, or asked of a fit) is refused with a
  /// message, never drawn with the target sent off to latitude 85.
  @Test func paddingWiderThanTheViewIsRefused() throws {
    let folder = try temporaryDirectory()
    let padded = CapturedRun([
      "render", "--map-type", "none", "--size", "100x100", "--padding", "10,60,10,60", "--output", folder + "/p.png",
    ])
    #expect(padded.status != 0)
    #expect(padded.error.contains("leaves no room"), "\(padded.error)")
    let fit = CapturedRun(["project", "--center", "10,10", "--zoom", "5", "--size", "100x100", "--fit", "0,0,1,1@60"])
    #expect(fit.status != 0)
    #expect(fit.error.contains("padding leaves no room"), "\(fit.error)")
    #expect(!FileManager.default.fileExists(atPath: folder + "/p.png"))
  }

  /// Every command that reads a scene warns of the same fields: `camera.tilt` (a misspelling
  /// of `viewingAngle`) in `project` as in `render`.
  @Test func everyCommandWarnsOfTheSameSceneFields() throws {
    let folder = try temporaryDirectory()
    let scene = folder + "/scene.json"
    try Data(
      #"{"camera": {"latitude": 10, "longitude": 10, "zoom": 5, "tilt": 30}, "size": {"width": 100, "height": 100}}"#
        .utf8
    )
    .write(to: URL(fileURLWithPath: scene))
    let project = CapturedRun(["project", "--scene", scene, "--point", "10,10"])
    #expect(project.status == 0, "\(project.error)")
    let render = CapturedRun(
      ["render", "--scene", scene, "--map-type", "none", "--output", folder + "/r.png", "--gpu", "surfaceless"])
    #expect(render.status == 0, "\(render.error)")
    for (command, run) in [("project", project), ("render", render)] {
      let warnings = run.error.split(separator: "\n").filter { $0.contains("warning") && $0.contains("tilt") }
      #expect(warnings.count == 1, "\(command): \(run.error)")
      #expect(warnings.first?.hasPrefix("tessera \(command): warning:") == true, "\(command): \(run.error)")
    }
  }
}
