import Foundation
import Tessera
import TesseraNumbers
import TesseraService

/// `tessera serve`: the HTTP render service (``RenderService``).
enum ServeCommand: Command {
  static let name = "serve"
  static let summary = "serve maps over HTTP (Google Static Maps API, health, metrics)"
  static let options: [OptionSpec] = [
    .value("config"), .value("listen"), .value("workers"), .value("queue"), .value("deadline"), .value("gpu"),
    .value("data-root"), .value("tiles"), .value("imagery"), .value("dem"), .value("map-ids"), .flag("access-log"),
    .flag("no-attribution"), .value("public-url"), .value("header-timeout"), .value("body-timeout"),
    .value("max-connections-per-client"), .value("drain"), .flag("reuse-port"),
  ]

  static let help = """
    usage: tessera serve [--config FILE] [--listen HOST:PORT] [options]

    Serves maps over HTTP until SIGTERM or SIGINT, then drains: /readyz answers 503 and new
    renders are refused while the listener still answers, for --drain seconds at least and until
    every request already accepted is answered; then it stops listening and exits 0. SIGHUP reads
    the config file again without dropping requests (the address and the number of workers stay
    as started). Without a config it serves the built-in map types over the demo city on
    127.0.0.1:8080.

    endpoints:
      GET /maps/api/staticmap?…   Google Static Maps API (center, zoom, size, scale, format,
                                  maptype, language, markers, path, visible, style, map_id,
                                  and heading, tilt, buildings)
      GET /health                 200 once the workers have started
      GET /readyz                 200 while taking requests, 503 while draining
      GET /metrics                Prometheus text: requests, latency, renders, queue depth
      GET /                       index page: styles with thumbnails, data sets, links
      GET /styles/{id}/           viewer (Leaflet) with a tilted-view camera panel
      GET /data/{id}/             data inspector; GET /playground/: Static Maps playground
      tileserver-gl's /styles/{id}/…, /data/{id}/…, /fonts/…: see docs/service.md

    options:
      --config FILE           a JSON config (see docs/service.md, "Config file"), or a
                              tileserver-gl config.json as it is
      --listen HOST:PORT      address to listen on (default 127.0.0.1:8080)
      --workers N             render threads, one GL context each (default: all cores)
      --queue N               requests waiting beyond the workers; more get 503 (default 32)
      --deadline S            seconds before a request is answered 504 (default 10)
      --header-timeout S      seconds for a request's head to arrive; the connection is closed
                              past it (default 10)
      --body-timeout S        seconds for a body to arrive after its head, and for an answer to
                              be sent (default 30)
      --max-connections-per-client N
                              connections open at once from one address (default 64; 0: no
                              cap; behind a proxy every client has the proxy's address)
      --drain S               seconds a shutdown keeps answering /readyz 503 before it stops
                              listening (default 0; about 15 behind Kubernetes' probes)
      --reuse-port            let other processes listen on the same port (SO_REUSEPORT);
                              without it a port in use fails the start
      --gpu SEL               as for tessera render
      --data-root DIR, --tiles SRC, --imagery SRC, --dem SRC   the map types' data
      --map-ids PATH          map IDs: a styles folder or config file
      --public-url URL        where clients reach the service (links start with it; default:
                              relative links)
      --access-log            JSON access log lines on standard error
      --no-attribution        do not credit the sources on images
      --help                  show this text
    """

  /// The flags over a configuration (at start and on each reload).
  static func apply(_ arguments: ParsedArguments, to configuration: inout ServiceConfiguration) throws {
    if let listen = arguments.value("listen") { try configuration.setListen(listen) }
    if let text = arguments.value("workers") {
      guard let workers = Int(text), (1...256).contains(workers) else {
        throw UsageError("--workers: expected 1…256, found '\(text)'")
      }
      configuration.workers = workers
    }
    if let text = arguments.value("queue") {
      guard let queue = Int(text), queue >= 0 else {
        throw UsageError("--queue: expected a count ≥ 0, found '\(text)'")
      }
      configuration.queueLimit = queue
    }
    if let text = arguments.value("deadline") {
      guard let deadline = Double(text), deadline > 0, deadline <= 3600 else {
        throw UsageError("--deadline: expected seconds in 0…3600, found '\(text)'")
      }
      configuration.deadline = deadline
    }
    func seconds(_ name: String, _ range: ClosedRange<Double>) throws -> Double? {
      guard let text = arguments.value(name) else { return nil }
      guard let value = Double(text), range.contains(value) else {
        throw UsageError("--\(name): expected seconds in \(range.lowerBound)…\(range.upperBound), found '\(text)'")
      }
      return value
    }
    if let value = try seconds("header-timeout", 0.1...3600) { configuration.headerTimeout = value }
    if let value = try seconds("body-timeout", 0.1...3600) { configuration.bodyTimeout = value }
    if let value = try seconds("drain", 0...3600) { configuration.drainSeconds = value }
    if let text = arguments.value("max-connections-per-client") {
      guard let count = Int(text), count >= 0 else {
        throw UsageError("--max-connections-per-client: expected a count ≥ 0, found '\(text)'")
      }
      configuration.maxConnectionsPerClient = count
    }
    if arguments.has("reuse-port") { configuration.reusePort = true }
    let workingFolder = FileManager.default.currentDirectoryPath
    if let root = arguments.value("data-root") {
      configuration.dataRoot = Scene.absolutePath(root, against: workingFolder)
    }
    if let tiles = arguments.value("tiles") { configuration.tiles = tiles }
    if let imagery = arguments.value("imagery") { configuration.imagery = imagery }
    if let dem = arguments.value("dem") { configuration.dem = dem }
    if let ids = arguments.value("map-ids") {
      do {
        configuration.mapIDs = try MapIDRegistry(path: Scene.absolutePath(ids, against: workingFolder))
      } catch {
        throw UsageError("--map-ids: \(error)")
      }
    }
    if let url = arguments.value("public-url") {
      do {
        configuration.publicURL = try ServiceConfiguration.publicURL(url)
      } catch {
        throw UsageError("--public-url: \(error.reason)")
      }
    }
    if arguments.has("access-log") { configuration.accessLog = true }
    if arguments.has("no-attribution") { configuration.attribution = false }
  }

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    var configuration: ServiceConfiguration
    do {
      configuration = try arguments.value("config").map { try ServiceConfiguration(file: $0) } ?? ServiceConfiguration()
      if let listen = arguments.value("listen") { try configuration.setListen(listen) }
    } catch {
      throw UsageError("\(error)")
    }
    try apply(arguments, to: &configuration)
    let gpu = try arguments.value("gpu").map(ValueParsers.gpu) ?? .auto
    // Signals are answered from before the service starts, so none sent once it says it
    // listens is lost: SIGTERM or SIGINT stop it gracefully; SIGHUP reads the config file again
    // (flags still apply on top), and a bad file keeps the old.
    let signals = try ServiceSignals()
    let service = try RenderService(configuration: configuration, gpu: gpu)
    signals.answerHere()
    console.printError(
      "tessera serve: listening on http://\(configuration.host):\(service.port) with \(configuration.workers) workers")
    while signals.next() == .reload {
      do {
        var reloaded =
          try arguments.value("config").map { try ServiceConfiguration(file: $0) } ?? ServiceConfiguration()
        try apply(arguments, to: &reloaded)
        signals.blocked { service.reload(reloaded) }
        console.printError("tessera serve: configuration reloaded")
      } catch {
        console.printError("tessera serve: configuration not reloaded: \(error)")
      }
    }
    console.printError("tessera serve: shutting down")
    return service.shutdown() ? 0 : 1
  }
}
