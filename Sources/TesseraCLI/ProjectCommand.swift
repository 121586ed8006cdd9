import Tessera
import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// `tessera project`: projection queries against a camera, without rendering.
enum ProjectCommand: Command {
  static let name = "project"
  static let summary = "convert between coordinates and screen points for a camera (no rendering)"
  static let options: [OptionSpec] = [
    .value("scene"), .value("center"), .value("zoom"), .value("bearing"), .value("tilt"), .value("size"),
    .value("scale"), .value("padding"), .value("min-zoom"), .value("max-zoom"), .value("max-tilt"),
    .value("update", repeatable: true), .value("point", repeatable: true), .value("unproject", repeatable: true),
    .value("fit", repeatable: true), .flag("visible-region"), .flag("json"),
  ]

  static let help = """
    usage: tessera project --center LAT,LNG --zoom Z [--bearing B] [--tilt T] --size WxH [--scale S]
                           [--padding TOP,LEFT,BOTTOM,RIGHT] (--point LAT,LNG[,HEIGHT] | --unproject X,Y |
                           --fit W,S,E,N[@PADDING] | --visible-region)... [--json]

    Answers projection queries with Tessera's camera model (CAMERA.md), in command-line order,
    one line per query. Screen points are in points, origin at the top-left.

      --point LAT,LNG[,H]     the screen point "X Y" of a coordinate (H metres above the ground),
                              or "none" when it is behind the camera
      --unproject X,Y         the coordinate "LAT LNG" on the ground under a screen point, or
                              "none" above the horizon
      --visible-region        "nearLeft LAT LNG nearRight … farLeft … farRight …" (the padded
                              view's corners; "none" for a corner above the horizon)
      --fit W,S,E,N[@P]       moves the camera to fit the bounds (padding P, default 64) and prints
                              "camera LAT LNG ZOOM BEARING TILT"; later queries use that camera
      --json                  print {"camera": …, "results": […]} instead

    The camera options are those of tessera render (--center, --zoom, --bearing, --tilt, --size,
    --scale, --padding, --min-zoom, --max-zoom, --max-tilt, --update, --scene); the camera used and
    printed is the clamped one (latitude ±85, bearing wrapped, tilt capped by zoom).
    Invalid input exits with status 2.
    """

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard arguments.positionals.isEmpty else {
      throw UsageError("unexpected argument '\(arguments.positionals[0])' (see tessera project --help)")
    }
    let settings: MapSettings
    do {
      settings = try MapSettings(arguments, scenePath: arguments.value("scene"), command: "project", console: console)
    } catch let error as UsageError {
      throw error
    } catch {
      throw UsageError("\(error)")
    }
    var state: MapState
    do {
      state = try settings.options.mapState(applying: settings.updates)
    } catch {
      throw UsageError(error.description)
    }
    let queries = arguments.ordered.filter { ["point", "unproject", "fit", "visible-region"].contains($0.name) }
    guard !queries.isEmpty else {
      throw UsageError("give at least one of --point, --unproject, --fit, --visible-region")
    }
    let initialCamera = state.camera
    var lines: [String] = []
    var results: [JSONValue] = []
    for (name, value) in queries {
      let projection = state.projection
      var result = JSONObject()
      result["query"] = .string(name)
      if !value.isEmpty { result["input"] = .string(value) }
      switch name {
      case "point":
        let numbers = try ValueParsers.numbers(
          value, count: value.split(separator: ",").count == 3 ? 3 : 2, option: "point", form: "LAT,LNG[,HEIGHT]")
        guard abs(numbers[0]) <= 90 else { throw UsageError("--point: latitude \(numbers[0]) is outside -90...90") }
        let coordinate = Coordinate(latitude: numbers[0], longitude: numbers[1])
        let point = projection.point(for: coordinate, height: numbers.count == 3 ? numbers[2] : 0)
        lines.append(point.map { "\(format($0.x)) \(format($0.y))" } ?? "none")
        if let point {
          result["x"] = .number(point.x)
          result["y"] = .number(point.y)
        } else {
          result["none"] = .bool(true)
        }
      case "unproject":
        let numbers = try ValueParsers.numbers(value, count: 2, option: "unproject", form: "X,Y")
        let coordinate = projection.coordinate(for: ScreenPoint(x: numbers[0], y: numbers[1]))
        lines.append(coordinate.map { "\(format($0.latitude)) \(format($0.longitude))" } ?? "none")
        result.merge(coordinate)
      case "fit":
        let update = try ValueParsers.update("fit:" + value, option: "fit")
        guard state.canApply(update) else {
          throw UsageError("--fit \(value): the padding leaves no room in the view")
        }
        state.move(update)
        lines.append("camera " + describe(state.camera))
        result["camera"] = json(state.camera)
      default:
        let region = projection.visibleRegion
        let corners = [
          ("nearLeft", region.nearLeft), ("nearRight", region.nearRight), ("farLeft", region.farLeft),
          ("farRight", region.farRight),
        ]
        lines.append(
          corners.map { name, coordinate in
            "\(name) " + (coordinate.map { "\(format($0.latitude)) \(format($0.longitude))" } ?? "none")
          }.joined(separator: " "))
        for (name, coordinate) in corners {
          var corner = JSONObject()
          corner.merge(coordinate)
          result[name] = .object(corner)
        }
      }
      results.append(.object(result))
    }
    if arguments.has("json") {
      let root = JSONObject([("camera", json(initialCamera)), ("results", .array(results))])
      console.print(JSONValue.object(root).serialized(pretty: true))
    } else {
      for line in lines { console.print(line) }
    }
    return 0
  }

  static func format(_ value: Double) -> String {
    JSONValue.format(value)
  }

  static func describe(_ camera: Camera) -> String {
    [camera.target.latitude, camera.target.longitude, camera.zoom, camera.bearing, camera.viewingAngle].map(format)
      .joined(separator: " ")
  }

  static func json(_ camera: Camera) -> JSONValue {
    .object(
      JSONObject([
        ("latitude", .number(camera.target.latitude)), ("longitude", .number(camera.target.longitude)),
        ("zoom", .number(camera.zoom)), ("bearing", .number(camera.bearing)),
        ("viewingAngle", .number(camera.viewingAngle)),
      ]))
  }
}

extension JSONObject {
  /// Adds latitude and longitude, or `none: true` for a missing coordinate.
  fileprivate mutating func merge(_ coordinate: Coordinate?) {
    if let coordinate {
      self["latitude"] = .number(coordinate.latitude)
      self["longitude"] = .number(coordinate.longitude)
    } else {
      self["none"] = .bool(true)
    }
  }
}
