import Dispatch
import Foundation
import Synchronization
import Tessera
import TesseraData
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// `tessera serve`: the HTTP render service. Google Static Maps requests (and the health,
/// readiness and metrics endpoints) on a libmicrohttpd server, rendered on a ``RenderPool``
/// (one GL context per worker thread).
///
/// Holding load: at most `workers + queueLimit` renders are accepted at once; beyond that a
/// request is answered 503 with `Retry-After` at once. A request not answered by its deadline
/// gets 504 (its render finishes on the worker and is dropped; a source slower than the
/// deadline is cut off by the tile wait, so the worker is free again). Answers carry an
/// `ETag` (304 for `If-None-Match`) and `Cache-Control`; HEAD answers headers only.
public final class RenderService: Sendable {
  /// The configuration the service started with (``reload(_:)`` changes what requests see).
  public let configuration: ServiceConfiguration
  /// The router requests go to; ``reload(_:)`` swaps it (requests in flight finish on theirs).
  private let current: RouterSlot
  private let counters: ServiceCounters
  private let pool: RenderPool
  private let server: HTTPServer
  private let metricsServer: HTTPServer?
  /// Where requests other than the probes are handled.
  private let routing: RequestThreads
  /// The port listened on (the configured one, or the one given for port 0).
  public var port: UInt16 { server.port }
  /// The port of the metrics listener, when the configuration gives it one.
  public var metricsPort: UInt16? { metricsServer?.port }

  /// Starts the workers, then listens; throws when no GL context can be made or the address
  /// cannot be bound.
  public init(configuration: ServiceConfiguration, gpu: GPUSelection = .auto) throws {
    self.configuration = configuration
    let pool = try RenderPool(threads: configuration.workers, gpu: gpu)
    self.pool = pool
    let counters = ServiceCounters()
    self.counters = counters
    let current = RouterSlot(ServiceRouter(configuration: configuration, pool: pool, counters: counters))
    self.current = current
    var options = Self.serverOptions(configuration, host: configuration.host, port: configuration.port)
    options.threads = min(max(configuration.workers, 2), 8)
    options.connectionLimit = configuration.connectionLimit
    options.reserveConnections = Self.reserveConnections
    options.reservePaths = Self.probePaths
    // The polling threads only read requests and send answers: probes are answered there (they
    // never wait), everything else on threads of its own, so a request that waits (an icon
    // fetch, a file) never holds up the probes of the connections sharing its thread.
    let routing = RequestThreads(count: Self.requestThreads, name: "tessera requests")
    self.routing = routing
    let server: HTTPServer
    do {
      server = try HTTPServer(options: options) { request in
        if Self.probePaths.contains(request.path) || request.refusal != nil {
          current.router.handle(request)
        } else {
          routing.async { current.router.handle(request) }
        }
      }
      if let host = configuration.metricsHost {
        var options = Self.serverOptions(configuration, host: host, port: configuration.metricsPort)
        options.threads = 1
        options.connectionLimit = 64
        options.maxBody = 0
        metricsServer = try HTTPServer(options: options) { request in
          current.router.handle(request, metricsOnly: true)
        }
      } else {
        metricsServer = nil
      }
    } catch {
      // The address cannot be bound (in use, say): the workers stop before the error leaves.
      routing.stop()
      pool.shutdown()
      throw error
    }
    self.server = server
    Self.logWarnings(of: configuration)
    let metricsServer = self.metricsServer
    counters.connectionStats.withLock {
      $0 = { [weak server, weak metricsServer] in
        var stats = server?.connectionStats ?? HTTPConnectionStats()
        if let other = metricsServer?.connectionStats {
          stats.open += other.open
          stats.headDeadlines += other.headDeadlines
          stats.bodyDeadlines += other.bodyDeadlines
          stats.sendDeadlines += other.sendDeadlines
          stats.reserveEvictions += other.reserveEvictions
        }
        return stats
      }
    }
  }

  /// What the listeners hold now and have cut (the metrics listener's connections counted as
  /// ordinary ones).
  public var connectionStats: HTTPConnectionStats { counters.connectionStats.withLock { $0 }() }

  /// Takes a new configuration without dropping requests (SIGHUP): styles, map IDs, data,
  /// limits, keys and the rest apply to requests from now on; the address, the number of workers
  /// and the connection settings stay as started. Metrics and counts carry over.
  public func reload(_ configuration: ServiceConfiguration) {
    let router = ServiceRouter(configuration: configuration, pool: pool, counters: counters)
    // Style and data files may have changed with the configuration: no request after this one
    // draws with a map a worker kept or a tile decoded from before.
    pool.discardKeptContent()
    let previous = current.replace(with: router)
    withExtendedLifetime(previous) {}
    Self.logWarnings(of: configuration)
  }

  /// The config file's warnings (options it sets that the service does not use), one log line
  /// each, when the service starts and when it is reloaded.
  static func logWarnings(of configuration: ServiceConfiguration) {
    for warning in configuration.warnings {
      configuration.logSink(ServiceLog.line([("warning", .string(warning)), ("kind", .string("config"))]))
    }
  }

  /// Requests accepted for rendering and not yet answered.
  public var rendersInFlight: Int { counters.inFlight.load(ordering: .sequentiallyConsistent) }

  /// Graceful shutdown (drain): from now on `/readyz` answers 503 and new renders are refused
  /// with 503 while the listener still accepts and answers (probes, anything that needs no
  /// render); it waits at least `drainSeconds` (the configuration's, so a load balancer sees
  /// the 503 and takes the instance out) and until every accepted request is answered (up to
  /// `timeout` seconds), then stops listening and stops the workers. Answers while draining
  /// close their connections. Returns whether every accepted request was answered in time.
  @discardableResult
  public func shutdown(timeout: Double = 30) -> Bool {
    let start = Date()
    counters.draining.store(true, ordering: .sequentiallyConsistent)
    let drainEnd = start.addingTimeInterval(current.router.configuration.drainSeconds)
    let end = start.addingTimeInterval(timeout)
    while Date() < drainEnd
      || counters.inFlight.load(ordering: .sequentiallyConsistent) > 0 && Date() < end
    {
      Thread.sleep(forTimeInterval: 0.01)
    }
    let finished = counters.inFlight.load(ordering: .sequentiallyConsistent) == 0
    server.quiesce()
    // Let the last answers leave before the connections close (a second at most).
    let leave = Date().addingTimeInterval(1)
    Thread.sleep(forTimeInterval: 0.02)
    while server.connectionStats.busy > 0 && Date() < leave { Thread.sleep(forTimeInterval: 0.01) }
    server.stop()
    metricsServer?.stop()
    routing.stop()
    pool.shutdown()
    ServiceLog.flush()
    return finished
  }
}

/// The router requests go to, replaced on reload.
final class RouterSlot: Sendable {
  private let slot: Mutex<ServiceRouter>

  init(_ router: ServiceRouter) { slot = Mutex(router) }

  var router: ServiceRouter { slot.withLock { $0 } }

  /// Puts `router` in the slot and returns the one it replaces, so that whoever called lets go
  /// of that outside the lock (releasing a router frees its caches and its configuration's
  /// files, which requests waiting for the slot should not wait for).
  func replace(with router: ServiceRouter) -> ServiceRouter {
    slot.withLock { slot in
      let previous = slot
      slot = router
      return previous
    }
  }
}

/// What outlives a reload: the metrics and the counts the service holds load with.
final class ServiceCounters: Sendable {
  let metrics = ServiceMetrics()
  /// Requests accepted and not yet answered (rendering or waiting).
  let inFlight = Atomic<Int>(0)
  let draining = Atomic<Bool>(false)
  /// The listeners' connection counts (set once they start).
  let connectionStats = Mutex<@Sendable () -> HTTPConnectionStats>({ HTTPConnectionStats() })
  /// When the service started: the `Last-Modified` of its tiles.
  let startedAt = Date()
}

/// Routes requests to their handlers and keeps the counts the service holds load with.
final class ServiceRouter: Sendable {
  let configuration: ServiceConfiguration
  let pool: RenderPool
  let counters: ServiceCounters
  var metrics: ServiceMetrics { counters.metrics }
  let icons: MarkerIcons
  /// Rendered metatiles and the requests waiting for them.
  let metatiles: MetatileCache
  /// Styles' credits and bounds, by id.
  let descriptions = Mutex<[String: TileJob.TileSet.Description]>([:])
  /// The data sets' archives, opened on first use.
  let dataSources = Mutex<[String: any TileSource]>([:])

  init(configuration: ServiceConfiguration, pool: RenderPool, counters: ServiceCounters) {
    self.configuration = configuration
    self.pool = pool
    self.counters = counters
    icons = MarkerIcons(policy: configuration.iconPolicy, folder: configuration.iconFolder)
    metatiles = MetatileCache(byteLimit: configuration.tileCacheBytes)
  }

  /// Google's limit on a request's URL.
  static let maximumTargetLength = 16_384

  /// Answers `request`; on the metrics listener (`metricsOnly`) only `/metrics` is served, and
  /// when that listener exists the main one does not serve `/metrics`.
  func handle(_ request: HTTPRequest, metricsOnly: Bool = false) {
    let start = DispatchTime.now()
    let route = ServiceRoute(path: request.path)
    let answered = Atomic<Bool>(false)
    let cors = configuration.corsOrigin
    @Sendable func answer(_ response: HTTPResponse) {
      guard answered.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
      else { return }
      var response = response
      if let cors { response.headers.append(("Access-Control-Allow-Origin", cors)) }
      // While draining, clients reconnect (to another instance) for their next request.
      if counters.draining.load(ordering: .relaxed) { response.headers.append(("Connection", "close")) }
      // Counted before it leaves, so a client's next /metrics request already sees it.
      let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
      metrics.record(route: route.rawValue, status: response.status, seconds: seconds)
      HTTPServer.respond(request, with: response)
      if configuration.accessLog { log(request, route: route.rawValue, status: response.status, seconds: seconds) }
    }
    if let refusal = request.refusal {
      answer(refusal.response)
      return
    }
    guard request.targetLength <= Self.maximumTargetLength else {
      answer(.text(414, "the request URL is longer than \(Self.maximumTargetLength) characters"))
      return
    }
    if let allowed = configuration.allowedHosts {
      let host = (host(of: request) ?? "").lowercased()
      let bare = host.split(separator: ":").first.map(String.init) ?? host
      guard allowed.contains(host) || allowed.contains(bare) else {
        answer(.text(421, "host '\(host)' is not served here"))
        return
      }
    }
    if request.method == "OPTIONS", configuration.corsOrigin != nil {
      answer(
        HTTPResponse(
          status: 204,
          headers: [
            ("Access-Control-Allow-Methods", "GET, HEAD, POST"), ("Access-Control-Allow-Headers", "Content-Type"),
          ]))
      return
    }
    guard ["GET", "HEAD", "POST"].contains(request.method) else {
      answer(.text(405, "method \(request.method) is not allowed", headers: [("Allow", "GET, HEAD, POST")]))
      return
    }
    let separateMetrics = configuration.metricsHost != nil
    if metricsOnly && route != .metrics || !metricsOnly && separateMetrics && route == .metrics {
      answer(.text(404, "no such endpoint: \(request.path)"))
      return
    }
    switch route {
    case .health:
      answer(.text(200, "ok"))
    case .readyz:
      answer(counters.draining.load(ordering: .relaxed) ? .text(503, "draining") : .text(200, "ready"))
    case .metrics:
      let queued = max(counters.inFlight.load(ordering: .relaxed) - pool.threadCount, 0)
      answer(
        HTTPResponse(
          status: 200, headers: [("Content-Type", "text/plain; version=0.0.4")],
          body: Array(
            (metrics.text(
              queued: queued, inFlight: counters.inFlight.load(ordering: .relaxed), workers: pool.threadCount
            ) + ServiceMetrics.connectionText(counters.connectionStats.withLock { $0 }())).utf8)))
    case .staticmap:
      if let keys = configuration.keys, !keys.contains(request.value("key") ?? "") {
        answer(.text(403, "The provided API key is invalid or missing."))
        return
      }
      if let secret = configuration.signingSecret, !URLSigning.verify(request.rawTarget, secret: secret) {
        answer(.text(403, "The request signature is missing or invalid for this URL."))
        return
      }
      let query: StaticMapsQuery
      do {
        query = try StaticMapsQuery(request, configuration: configuration)
      } catch {
        answer(.text(error.status, error.reason, headers: error.headers))
        return
      }
      // Icons are fetched while the request holds its place, under its deadline.
      let icons = self.icons
      let configuration = self.configuration
      prepareAndRender(request, format: query.format, answer: answer) { deadline throws(ServiceError) in
        var fetched: [String: Result<[UInt8], ServiceError>] = [:]
        for icon in query.icons { fetched[icon] = icons.picture(for: icon, until: deadline) }
        return try query.scene(icons: fetched, configuration: configuration)
      }
    case .render:
      guard request.method == "POST" else {
        answer(.text(405, "POST a scene to /render", headers: [("Allow", "POST")]))
        return
      }
      guard !request.bodyTooLarge else {
        answer(.text(413, "the body is larger than \(configuration.maxBodyBytes) bytes"))
        return
      }
      let name = request.value("format") ?? "png"
      guard let format = ImageEncoding(name: name) else {
        answer(.text(400, "format must be one of \(ImageEncoding.names), found '\(HeaderText.clean(name))'"))
        return
      }
      let configuration = self.configuration
      prepareAndRender(request, format: format, answer: answer) { _ throws(ServiceError) in
        let scene = try SceneBody.scene(request.body, configuration: configuration)
        return (scene, scene.warnings)
      }
    case .styles:
      answer(stylesList(request))
    case .style:
      answer(styleDocument(request))
    case .tile:
      serveTile(request, answer: answer)
    case .tilejson:
      answer(serveTileJSON(request))
    case .wmts:
      answer(serveWMTS(request))
    case .data:
      answer(serveData(request))
    case .fonts:
      answer(serveFonts(request))
    case .tileserverStatic:
      let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
      guard let style = configuration.styles[parts[1]] else {
        answer(.text(404, "no style '\(parts[1])'"))
        return
      }
      guard !request.bodyTooLarge else {
        answer(.text(413, "the body is larger than \(configuration.maxBodyBytes) bytes"))
        return
      }
      do {
        // tileserver-gl's options may come in a POST body when they are too long for a URL.
        let query = try TileserverQuery(
          style: style, camera: parts[3], size: parts[4], request: try request.addingBodyArguments(),
          configuration: configuration)
        prepareAndRender(request, format: query.format, answer: answer) { _ in (query.scene, query.warnings) }
      } catch {
        answer(.text(error.status, error.reason, headers: error.headers))
      }
    case .sprite:
      answer(serveSprite(request))
    case .page:
      answer(servePage(request))
    case .asset:
      answer(serveAsset(request))
    case .other:
      answer(.text(404, "no such endpoint: \(request.path)"))
    }
  }

  /// The host the client asked for: `X-Forwarded-Host` behind a trusted proxy, else `Host`.
  func host(of request: HTTPRequest) -> String? {
    if configuration.trustsForwardedHeaders, let forwarded = request.header("X-Forwarded-Host") {
      return forwarded.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
    }
    return request.header("Host")
  }

  /// `/styles.json`: the style ids, as tileserver-gl lists them (links as ``baseURL(_:)``
  /// writes them).
  private func stylesList(_ request: HTTPRequest) -> HTTPResponse {
    let base = baseURL(request)
    let entries: [JSONValue] = configuration.styles.keys.sorted().map { id in
      ["version": 8, "name": .string(id), "id": .string(id), "url": .string("\(base)/styles/\(id)/style.json")]
    }
    return HTTPResponse(
      status: 200, headers: [("Content-Type", "application/json")] + linkHeaders,
      body: Array(JSONValue.array(entries).serialized().utf8))
  }

  /// `/styles/{id}/style.json`: a configured style file as it is; a tileserver-gl style as
  /// written, with its data sources and glyphs pointing at this server (see
  /// ``TileserverGLStyle/published(_:id:base:data:servesFonts:)``).
  private func styleDocument(_ request: HTTPRequest) -> HTTPResponse {
    let id = String(request.path.split(separator: "/")[1])
    switch configuration.styles[id] {
    case .file(let path, _)?:
      let published = configuration.publishedStyleFiles[id] ?? path
      guard let data = FileManager.default.contents(atPath: published) else {
        return .text(500, "style '\(id)' cannot be read")
      }
      guard configuration.publishedStyleFiles[id] != nil, let document = try? JSONParser.parse(Array(data)) else {
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(data))
      }
      let rewritten = TileserverGLStyle.published(
        document, id: id, base: baseURL(request), data: configuration.dataSets,
        servesFonts: configuration.fontsFolder != nil)
      return HTTPResponse(
        status: 200, headers: [("Content-Type", "application/json")] + linkHeaders,
        body: Array(rewritten.serialized().utf8))
    case .mapType?:
      return .text(404, "style '\(id)' is a built-in map type; it has no style document")
    case nil:
      return .text(404, "no style '\(id)'")
    }
  }

  /// A place among the requests rendering or waiting, taken by ``admit(_:answer:)``: the
  /// request's deadline, and the cancellation its render is given (set at the deadline, so a
  /// render that can no longer be answered stops at its next check and frees its worker).
  final class Admission: Sendable {
    let done = Atomic<Bool>(false)
    let counters: ServiceCounters
    /// When the request is answered 504 if it has not been answered yet.
    let deadline: DispatchTime
    let cancellation = RenderCancellation()

    init(counters: ServiceCounters, deadline: DispatchTime) {
      self.counters = counters
      self.deadline = deadline
    }

    /// Gives the place back once the request is answered (the deadline no longer applies).
    func finish() {
      done.store(true, ordering: .sequentiallyConsistent)
      counters.inFlight.subtract(1, ordering: .sequentiallyConsistent)
    }
  }

  /// Takes a place for a render unless the workers and the queue are full (then answers 503
  /// with `Retry-After` at once and returns nil) and arms the deadline: unless finished by
  /// then, the request is answered 504 (`what` names what was not rendered) and its render is
  /// cancelled.
  func admit(_ what: String, answer: @escaping @Sendable (HTTPResponse) -> Void) -> Admission? {
    let capacity = pool.threadCount + configuration.queueLimit
    let accepted = counters.inFlight.add(1, ordering: .sequentiallyConsistent).newValue
    guard accepted <= capacity, !counters.draining.load(ordering: .relaxed) else {
      counters.inFlight.subtract(1, ordering: .sequentiallyConsistent)
      answer(.text(503, "the server is busy; try again shortly", headers: [("Retry-After", "1")]))
      return nil
    }
    let seconds = configuration.deadline
    let deadline = DispatchTime.now() + seconds
    let admission = Admission(counters: counters, deadline: deadline)
    DispatchQueue.global().asyncAfter(deadline: deadline) {
      guard !admission.done.load(ordering: .sequentiallyConsistent) else { return }
      admission.cancellation.cancel()
      answer(.text(504, "the \(what) was not rendered within \(seconds) seconds"))
    }
    return admission
  }

  /// An image answer: 200 with the bytes, or 304 when `ifNoneMatch` names their entity tag;
  /// `Cache-Control`, `ETag` and `headers` either way.
  static func imageResponse(
    _ bytes: [UInt8], mimeType: String, headers: [(String, String)] = [], ifNoneMatch: String?
  ) -> HTTPResponse {
    let tag = "\"" + hash(bytes) + "\""
    let all = [("Content-Type", mimeType), ("Cache-Control", "public, max-age=86400"), ("ETag", tag)] + headers
    if let match = ifNoneMatch,
      match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == tag })
    {
      return HTTPResponse(status: 304, headers: all.filter { $0.0 != "Content-Type" })
    }
    return HTTPResponse(status: 200, headers: all, body: bytes)
  }

  /// Takes a place (503 when full), then prepares the scene (`prepare` gets the request's
  /// deadline: the icons it fetches must arrive by then) and renders it: answers the image, the
  /// preparation's refusal, or 504 at the deadline. Runs on the request's own thread (never the
  /// HTTP server's polling threads or Dispatch's global queues, which a waiting fetch would hold).
  func prepareAndRender(
    _ request: HTTPRequest, format: ImageEncoding, answer: @escaping @Sendable (HTTPResponse) -> Void,
    prepare: (DispatchTime) throws(ServiceError) -> (Scene, [String])
  ) {
    guard let admission = admit("map", answer: answer) else { return }
    // Read now: once answered (at the deadline) the request's connection may be gone.
    let ifNoneMatch = request.header("If-None-Match")
    do {
      let (scene, warnings) = try prepare(admission.deadline)
      render(
        scene, format: format, warnings: warnings, ifNoneMatch: ifNoneMatch, admission: admission, answer: answer)
    } catch {
      answer(.text(error.status, configuration.publicMessage(error.reason), headers: error.headers))
      admission.finish()
    }
  }

  /// Renders `scene` on the pool under `admission`'s cancellation and answers the image (or why
  /// not); gives the place back when done.
  private func render(
    _ scene: Scene, format: ImageEncoding, warnings: [String], ifNoneMatch: String?, admission: Admission,
    answer: @escaping @Sendable (HTTPResponse) -> Void
  ) {
    let metrics = self.metrics
    let configuration = self.configuration
    pool.submit(scene, cancellation: admission.cancellation) { result in
      defer { admission.finish() }
      switch result {
      case .success(let snapshot):
        metrics.rendered(failed: false)
        if !snapshot.warnings.isEmpty {
          // Fallbacks are never silent: counted, logged, and named in a header.
          metrics.warned(snapshot.warnings)
          for warning in snapshot.warnings { Self.logWarning(warning) }
        }
        do {
          let allWarnings = (warnings + snapshot.warnings).map { configuration.publicMessage($0) }
          let headers =
            allWarnings.isEmpty
            ? [] : [("X-Staticmap-API-Warning", HeaderText.clean(allWarnings.joined(separator: "; ")))]
          answer(
            Self.imageResponse(
              try format.encode(snapshot.image), mimeType: format.mimeType, headers: headers, ifNoneMatch: ifNoneMatch))
        } catch {
          answer(.text(500, "the image could not be encoded"))
        }
      case .failure(let error):
        metrics.rendered(failed: true)
        answer(Self.failure(error, configuration: configuration))
      }
    }
  }

  /// The answer to a render that failed: the reason, when it lies in what the request asked
  /// for (400; 413 for a content limit); else 500 with no detail (the reason is logged: it may
  /// name the server's files).
  static func failure(_ error: any Error, configuration: ServiceConfiguration) -> HTTPResponse {
    let message = "\(error)".replacingOccurrences(of: "\n", with: " ")
    switch error {
    case let limit as ContentLimitError:
      return .text(413, configuration.publicMessage(limit.description))
    case is RenderCancelledError:
      return .text(504, "the map was not rendered within \(configuration.deadline) seconds")
    case is SceneError, is MarkerError, is OverlayError, is JSONFieldError, is GeoError, is NumberConversionError,
      is MapIDError:
      return .text(400, configuration.publicMessage(message))
    default:
      logWarning("render failed: \(message)")
      return .text(500, "the map could not be drawn; the server's log says why")
    }
  }

  /// FNV-1a (64 bits) of `bytes` in hex: the entity tag of an image.
  static func hash(_ bytes: [UInt8]) -> String {
    String(FNV1a.hash(bytes), radix: 16)
  }

  /// A render warning as a JSON log line on standard error.
  static func logWarning(_ message: String) {
    ServiceLog.standardError(
      ServiceLog.line([("warning", .string(message)), ("kind", .string(ServiceMetrics.kind(of: message)))]))
  }

  /// The access log line of an answer, every field escaped (the path and method are the
  /// client's, decoded: they may hold quotes, backslashes and control characters).
  private func log(_ request: HTTPRequest, route: String, status: Int, seconds: Double) {
    configuration.logSink(
      ServiceLog.line([
        ("client", .string(request.client)), ("method", .string(request.method)), ("route", .string(route)),
        ("path", .string(request.path)), ("status", .number(Double(status))),
        ("seconds", .number((seconds * 10_000).rounded() / 10_000)),
      ]))
  }
}
