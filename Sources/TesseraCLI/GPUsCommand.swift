import TesseraGL
import TesseraJSON
import TesseraNumbers

/// `tessera gpus`: lists the EGL devices and DRM render nodes and what each renders with.
enum GPUsCommand: Command {
  static let name = "gpus"
  static let summary = "list EGL devices and render nodes, with the GL renderer each gives"
  static let options: [OptionSpec] = [.flag("json")]

  static let help = """
    usage: tessera gpus [--json]

    Lists what --gpu can select: the EGL devices (EGL_EXT_device_enumeration) with their
    extensions and DRM nodes, Mesa's surfaceless platform, and the DRM render nodes for the gbm
    platform. For each it creates a context and prints the GL_RENDERER string, or the error.

    options:
      --json                  print JSON instead of text
      --help                  show this text
    """

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let report = GPUReport.make()
    if arguments.has("json") {
      console.print(report.json.serialized(pretty: true))
    } else {
      for line in report.lines { console.print(line) }
    }
    return 0
  }
}

/// What `tessera gpus` found.
struct GPUReport {
  struct Entry {
    let selection: String
    let details: [String]
    let extensions: [String]
    let renderer: Result<String, any Error>
  }

  var entries: [Entry] = []
  var enumerationError: String?
  var renderNodes: [String] = []

  static func make() -> GPUReport {
    var report = GPUReport()
    do {
      for device in try HeadlessGPUs.devices() {
        var details: [String] = [device.isSoftware ? "software (EGL_MESA_device_software)" : "hardware"]
        if let drm = device.drmDeviceFile { details.append("DRM device \(drm)") }
        if let node = device.renderNodeFile { details.append("render node \(node)") }
        report.entries.append(
          Entry(
            selection: "device:\(device.index)", details: details, extensions: device.extensions,
            renderer: renderer(.device(device.index))))
      }
    } catch {
      report.enumerationError = "\(error)"
    }
    report.entries.append(
      Entry(
        selection: "surfaceless", details: ["Mesa surfaceless platform"], extensions: [],
        renderer: renderer(.surfaceless)))
    report.renderNodes = HeadlessGPUs.renderNodes()
    for node in report.renderNodes {
      report.entries.append(
        Entry(
          selection: "gbm:\(node)", details: ["Mesa GBM platform"], extensions: [],
          renderer: renderer(.gbm(renderNode: node))))
    }
    return report
  }

  static func renderer(_ selection: GPUSelection) -> Result<String, any Error> {
    Result {
      let device = try GLDevice(gpu: selection)
      return "\(device.info.renderer) | \(device.info.version)"
    }
  }

  var lines: [String] {
    var lines: [String] = []
    if let enumerationError { lines.append("EGL device enumeration unavailable: \(enumerationError)") }
    for entry in entries {
      lines.append("\(entry.selection): \(entry.details.joined(separator: ", "))")
      switch entry.renderer {
      case .success(let renderer): lines.append("  GL renderer: \(renderer)")
      case .failure(let error): lines.append("  error: \(error)")
      }
      if !entry.extensions.isEmpty { lines.append("  extensions: \(entry.extensions.joined(separator: " "))") }
    }
    lines.append(
      "render nodes: "
        + (renderNodes.isEmpty ? "none (no /dev/dri/renderD*; gbm unavailable)" : renderNodes.joined(separator: " ")))
    return lines
  }

  var json: JSONValue {
    let devices: [JSONValue] = entries.map { entry in
      var object = JSONObject()
      object["selection"] = .string(entry.selection)
      object["details"] = .array(entry.details.map(JSONValue.string))
      object["extensions"] = .array(entry.extensions.map(JSONValue.string))
      switch entry.renderer {
      case .success(let renderer): object["renderer"] = .string(renderer)
      case .failure(let error): object["error"] = .string("\(error)")
      }
      return .object(object)
    }
    var root = JSONObject()
    root["devices"] = .array(devices)
    root["renderNodes"] = .array(renderNodes.map(JSONValue.string))
    if let enumerationError { root["enumerationError"] = .string(enumerationError) }
    return .object(root)
  }
}
