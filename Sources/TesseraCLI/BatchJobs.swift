import Foundation
import Tessera
import TesseraData
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// One line of a jobs file: the scene to draw and where its image goes.
struct BatchJob: Sendable {
  /// 1-based line number in the jobs file, for messages.
  let line: Int
  let scene: Scene
  let output: String
  let format: ImageEncoding
}

/// Reads a jobs file (JSON Lines): one object per line, blank lines skipped.
///
/// A line is a scene written inline (the fields of a scene file) plus `"output"` (required)
/// and `"format"` (png, png8, jpeg, webp or gif; default from the output's extension). With `"scene":
/// "FILE.json"` the line starts from that scene file and its other fields replace the file's
/// (for example only `"camera"`). Relative paths resolve against the jobs file's folder, and
/// inside a referenced scene against that scene's folder.
enum BatchJobs {
  /// Fields of a line that are not scene fields.
  static let jobFields: Set<String> = ["output", "format", "scene"]

  /// The jobs of the file at `path`, one message for each line that is not a valid job, and the
  /// batch's inputs (the jobs file, the scene files and every file their fields name; the files
  /// read while rendering are written to `reads`). A job whose output is one of the inputs is a
  /// problem line.
  static func load(path: String, reads: ResourceLog) throws(CommandFailure) -> (
    jobs: [BatchJob], problems: [String], inputs: OutputGuard
  ) {
    let bytes = try FileOutput.read(path)
    let folder = (path as NSString).deletingLastPathComponent
    var jobs: [BatchJob] = []
    var problems: [String] = []
    var inputs = OutputGuard()
    inputs.add(path, as: "the jobs file")
    var sceneFiles = SceneFiles()
    var lineNumber = 0
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      lineNumber += 1
      guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != 13 }) else {
        continue
      }
      do {
        jobs.append(
          try job(
            Array(line), line: lineNumber, jobsPath: path, folder: folder, reads: reads, inputs: &inputs,
            sceneFiles: &sceneFiles))
      } catch {
        problems.append("\(path) line \(lineNumber): \(error)")
      }
    }
    // Every output against every input (a job's output may be another job's icon).
    var kept: [BatchJob] = []
    for job in jobs {
      do {
        try inputs.check(job.output, option: "line \(job.line): field 'output'")
        kept.append(job)
      } catch {
        problems.append("\(path) \(error)")
      }
    }
    return (kept, problems, inputs)
  }

  /// Scene files that jobs name, each read and parsed once per jobs file (jobs that differ only
  /// in their camera usually share one).
  struct SceneFiles {
    private var parsed: [String: JSONObject] = [:]

    /// The object in the scene file at `path`.
    mutating func object(at path: String) throws -> JSONObject {
      if let object = parsed[path] { return object }
      guard case .object(let object) = try JSONParser.parse(try FileOutput.read(path)) else {
        throw CommandFailure("\(path): expected a JSON object")
      }
      parsed[path] = object
      return object
    }
  }

  /// Parses one line.
  static func job(
    _ bytes: [UInt8], line: Int, jobsPath: String, folder: String, reads: ResourceLog, inputs: inout OutputGuard,
    sceneFiles: inout SceneFiles
  ) throws -> BatchJob {
    guard case .object(let object) = try JSONParser.parse(bytes) else {
      throw CommandFailure("expected a JSON object")
    }
    guard case .string(let outputText)? = object["output"] else {
      throw CommandFailure("field 'output': expected the image path as a string")
    }
    let output = Scene.absolutePath(outputText, against: folder)
    var format = ImageEncoding(ImageFormat.fromExtension(of: output) ?? .png)
    if let value = object["format"] {
      guard case .string(let name) = value, let named = ImageEncoding(name: name) else {
        throw CommandFailure("field 'format': expected one of \(ImageEncoding.names)")
      }
      format = named
    }
    var fields = JSONObject()
    var scenePath = jobsPath
    if let value = object["scene"] {
      guard case .string(let path) = value else {
        throw CommandFailure("field 'scene': expected a scene file path as a string")
      }
      scenePath = Scene.absolutePath(path, against: folder)
      fields = try sceneFiles.object(at: scenePath)
    }
    for (key, value) in object.pairs where !jobFields.contains(key) { fields[key] = value }
    let sceneFolder = (scenePath as NSString).deletingLastPathComponent
    let scene = try Scene.parse(
      JSONValue.object(fields), path: scenePath, access: .local(directory: sceneFolder, log: reads))
    inputs.add(scenePath, as: "scene \(scenePath)")
    inputs.addNames(in: .object(fields), against: sceneFolder)
    inputs.add(reads)
    if scene.animation != nil { throw CommandFailure("field 'animation': batch jobs draw single images") }
    return BatchJob(line: line, scene: scene, output: output, format: format)
  }
}
