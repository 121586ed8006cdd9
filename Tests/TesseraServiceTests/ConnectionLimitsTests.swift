import Dispatch
import Foundation
import Synchronization
import Tessera
import TesseraData
import TesseraService
import Testing

/// What one client can hold of `tessera serve`, over real HTTP on loopback (clients on several
/// 127.0.0.x addresses): deadlines for a request's head, body and answer, the cap per client
/// address, the reserve that keeps probes answered, the port that cannot be shared by
/// accident, and the drain at shutdown.
@Suite(.serialized) struct ConnectionLimitsTests {
  @Test func aSlowHeadIsCutAtTheHeaderDeadline() throws {
    let service = try RenderServiceTests.start {
      $0.headerTimeout = 1
      $0.connectionTimeout = 30
    }
    defer { service.shutdown() }
    // A header line every 0.2 s keeps the connection busy (never idle), but the head is not
    // through by its deadline: the connection ends about a second after it opened.
    let slow = try RawConnection(port: service.port, from: "127.0.0.2")
    let closed = slow.trickle(
      head: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n", drip: "X-Slow: 1\r\n", interval: 0.2, limit: 25)
    let seconds = try #require(closed, "the slow head was never cut")
    #expect(seconds >= 0.95 && seconds < 1.6, "closed after \(seconds) s")
    #expect(service.connectionStats.headDeadlines >= 1)
    // A kept-alive connection: the next head is due a second after the answer, so an idle
    // connection ends then too.
    let kept = try RawConnection(port: service.port, from: "127.0.0.3")
    kept.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    let first = kept.receive(timeout: 2, until: "ok\n")
    #expect(RawResponse(first.bytes)?.status == 200 && !first.closed)
    let answered = Date()
    #expect(kept.receive(timeout: 3).closed)
    let idle = Date().timeIntervalSince(answered)
    #expect(idle >= 0.9 && idle < 1.6, "kept-alive connection closed after \(idle) s idle")
    // Prompt requests are unaffected.
    #expect(try RawConnection.request(port: service.port, "/health").response?.status == 200)
  }

  @Test func aSlowBodyIsCutAtTheBodyDeadline() throws {
    let service = try RenderServiceTests.start {
      $0.headerTimeout = 5
      $0.bodyTimeout = 1
      $0.connectionTimeout = 30
    }
    defer { service.shutdown() }
    let slow = try RawConnection(port: service.port, from: "127.0.0.2")
    let closed = slow.trickle(
      head: "POST /render HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n", drip: " ", interval: 0.2,
      limit: 25)
    let seconds = try #require(closed, "the slow body was never cut")
    #expect(seconds >= 0.95 && seconds < 1.6, "closed after \(seconds) s")
    #expect(service.connectionStats.bodyDeadlines >= 1)
    // A body sent at once is read and answered.
    let prompt = try RawConnection(port: service.port, from: "127.0.0.3")
    prompt.send("POST /health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
    #expect(RawResponse(prompt.receive(timeout: 3).bytes)?.status == 200)
  }

  @Test func aRequestWaitingForItsRenderHasNoConnectionDeadline() throws {
    // Head and body deadlines of a second; the render waits for a source that never answers
    // until the request's own deadline (2.5 s), and the answer comes then.
    let silent = try SilentServer()
    defer { silent.close() }
    let service = try RenderServiceTests.start(workers: 1, deadline: 2.5) {
      $0.headerTimeout = 1
      $0.bodyTimeout = 1
      $0.tiles = "http://127.0.0.1:\(silent.port)/{z}/{x}/{y}.pbf"
    }
    defer { service.shutdown() }
    let (response, seconds) = try RawConnection.request(
      port: service.port, "/maps/api/staticmap?center=40,-74&zoom=15&size=64x64", timeout: 10)
    // 504 at the deadline, or 200 when the render (whose tile wait ends at the same deadline)
    // is through first; either way an answer, not a connection cut at a second.
    #expect(response?.status == 504 || response?.status == 200, "\(String(describing: response?.status))")
    #expect(seconds >= 2.4 && seconds < 5, "answered after \(seconds) s")
  }

  @Test func aClientThatReadsSlowlyIsCutAtTheSendDeadline() throws {
    // A 16 MB style document to a client with a 4 KB receive buffer that reads nothing: more
    // than the socket buffers hold, so the answer is still being sent at its deadline.
    let folder = NSTemporaryDirectory() + "tessera-slow-read-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let size = 16 << 20
    try Data(repeating: 0x20, count: size).write(to: URL(fileURLWithPath: folder + "/big.json"))
    let service = try RenderServiceTests.start {
      $0.bodyTimeout = 1
      $0.connectionTimeout = 30
      $0.styles["big"] = .file(path: folder + "/big.json", dataRoot: folder)
    }
    defer { service.shutdown() }
    let reader = try RawConnection(port: service.port, from: "127.0.0.2", receiveBuffer: 4096)
    reader.send("GET /styles/big/style.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    #expect(eventually(within: 5) { service.connectionStats.sendDeadlines >= 1 })
    // What arrives ends well short of the document, and then the connection ends.
    let (bytes, closed) = reader.receive(timeout: 10)
    #expect(closed && bytes.count < size, "\(bytes.count) bytes, closed: \(closed)")
  }

  @Test func connectionsPerClientAreCapped() throws {
    let service = try RenderServiceTests.start { $0.maxConnectionsPerClient = 4 }
    defer { service.shutdown() }
    var held = try (0..<4).map { _ in try RawConnection(port: service.port, from: "127.0.0.5") }
    #expect(eventually(within: 5) { service.connectionStats.open == 4 })
    // A fifth connection from the same address is closed without an answer; another address
    // is served.
    let (refused, _) = try RawConnection.request(port: service.port, from: "127.0.0.5", "/health", timeout: 2)
    #expect(refused == nil)
    #expect(try RawConnection.request(port: service.port, from: "127.0.0.6", "/health").response?.status == 200)
    // Once one of the four ends, the address may connect again.
    held.removeLast()
    #expect(eventually(within: 5) { service.connectionStats.open == 3 })
    #expect(try RawConnection.request(port: service.port, from: "127.0.0.5", "/health").response?.status == 200)
    #expect(held.count == 3)
  }

  @Test func probesAreAnsweredWhileEveryConnectionIsTaken() throws {
    // 24 ordinary connections: 3 renders waiting on a source that never answers (one worker,
    // a queue of 2) and 13 idle connections from 127.0.0.2, and 8 slow heads from 127.0.0.3-6;
    // then 8 more slow heads (127.0.0.7-10) land in the reserve.
    let silent = try SilentServer()
    defer { silent.close() }
    let service = try RenderServiceTests.start(workers: 1, queue: 2, deadline: 5) {
      $0.connectionLimit = 24
      $0.maxConnectionsPerClient = 0
      $0.headerTimeout = 3
      $0.connectionTimeout = 30
      $0.tiles = "http://127.0.0.1:\(silent.port)/{z}/{x}/{y}.pbf"
    }
    defer { service.shutdown() }
    var renders: [RawConnection] = []
    for index in 0..<3 {
      let connection = try RawConnection(port: service.port, from: "127.0.0.2")
      connection.send(
        "GET /maps/api/staticmap?center=40,-74&zoom=\(15 + Double(index) * 0.1)&size=64x64 HTTP/1.1\r\n"
          + "Host: 127.0.0.1\r\nConnection: close\r\n\r\n")
      renders.append(connection)
    }
    #expect(eventually(within: 5) { service.rendersInFlight == 3 })
    let idle = try (0..<13).map { _ in try RawConnection(port: service.port, from: "127.0.0.2") }
    let slowOrdinary = try (0..<8).map { try RawConnection(port: service.port, from: "127.0.0.\(3 + $0 % 4)") }
    #expect(eventually(within: 5) { service.connectionStats.open == 24 })
    let slowReserve = try (0..<8).map { try RawConnection(port: service.port, from: "127.0.0.\(7 + $0 % 4)") }
    #expect(eventually(within: 5) { service.connectionStats.openReserve == 8 })
    for connection in slowOrdinary + slowReserve { connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n") }

    // Probes from 127.0.0.1 are answered at once; anything else there is turned away at once.
    let (health, healthSeconds) = try RawConnection.request(port: service.port, "/health", timeout: 5)
    let (ready, readySeconds) = try RawConnection.request(port: service.port, "/readyz", timeout: 5)
    let (map, mapSeconds) = try RawConnection.request(
      port: service.port, "/maps/api/staticmap?center=0,0&zoom=2&size=32x32", timeout: 5)
    print("every ordinary connection taken: /health \(healthSeconds) s, /readyz \(readySeconds) s")
    #expect(health?.status == 200 && healthSeconds < 1, "\(healthSeconds) s")
    #expect(ready?.status == 200 && readySeconds < 1, "\(readySeconds) s")
    #expect(map?.status == 503 && map?.header("Retry-After") == "1" && mapSeconds < 1)
    #expect(health?.header("Connection") == "close")

    // The slow heads end at their deadlines: 3 s for ordinary connections (the idle ones too),
    // 2 s in the reserve. The renders have no such deadline: each is answered, 504 at 5 s.
    let ordinary = slowOrdinary + idle
    let closed = RawConnection.closeTimes(ordinary + slowReserve, timeout: 5)
    for (index, seconds) in closed.enumerated() {
      let range = index < ordinary.count ? 2.9..<3.6 : 1.9..<2.6
      #expect(seconds.map(range.contains) == true, "connection \(index) closed after \(String(describing: seconds)) s")
    }
    #expect(service.connectionStats.headDeadlines == ordinary.count + slowReserve.count)
    for connection in renders {
      let status = RawResponse(connection.receive(timeout: 8).bytes)?.status
      #expect(status == 504, "\(String(describing: status))")
    }
    // The source now refuses at once, so the renders still waiting on it end soon.
    silent.close()
  }

  @Test func aFloodPastTheReserveIsChurnedThrough() throws {
    // 8 ordinary connections taken, then 48 slow heads from 127.0.0.3-14: three times the
    // reserve. Each connection past the reserve closes the one that waited longest for its head,
    // so a probe queued behind them all is answered at once rather than after rounds of
    // deadlines.
    let service = try RenderServiceTests.start {
      $0.connectionLimit = 8
      $0.maxConnectionsPerClient = 0
      $0.connectionTimeout = 30
    }
    defer { service.shutdown() }
    let ordinary = try (0..<8).map { _ in try RawConnection(port: service.port, from: "127.0.0.2") }
    #expect(eventually(within: 5) { service.connectionStats.open == 8 })
    let flood = try (0..<48).map { index in
      let connection = try RawConnection(port: service.port, from: "127.0.0.\(3 + index % 12)")
      connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
      return connection
    }
    let (health, seconds) = try RawConnection.request(port: service.port, "/health", timeout: 5)
    print("48 slow heads past 8 ordinary connections: /health \(seconds) s")
    #expect(health?.status == 200 && seconds < 1, "\(seconds) s")
    #expect(service.connectionStats.reserveEvictions >= 48 - RenderService.reserveConnections)
    #expect(ordinary.count + flood.count == 56)
  }

  @Test func probesDoNotWaitBehindRequestsThatWait() throws {
    // Marker icons from a host that never answers: each such request waits (the icon fetch's
    // timeout) before it is rendered. More of them than the server has polling threads; the
    // probes are still answered at once.
    let silent = try SilentServer()
    defer { silent.close() }
    let service = try RenderServiceTests.start {
      $0.iconHosts = [try! OutboundURL("http://127.0.0.1:\(silent.port)/")]
      $0.iconPrivateAddresses = true
    }
    defer { service.shutdown() }
    let waiting = try (0..<4).map { index in
      let connection = try RawConnection(port: service.port, from: "127.0.0.2")
      connection.send(
        "GET /maps/api/staticmap?center=0,0&zoom=2&size=32x32&markers=icon:http://127.0.0.1:\(silent.port)/\(index).png%7C0,0"
          + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
      return connection
    }
    Thread.sleep(forTimeInterval: 0.3)
    let (health, seconds) = try RawConnection.request(port: service.port, "/health", timeout: 10)
    print("four requests waiting for icons: /health \(seconds) s")
    #expect(health?.status == 200 && seconds < 1, "\(seconds) s")
    _ = waiting
  }

  @Test func aSecondServiceOnTheSamePortFailsAtStart() throws {
    let first = try RenderServiceTests.start(workers: 1)
    defer { first.shutdown() }
    #expect(try RawConnection.request(port: first.port, "/health").response?.status == 200)
    do {
      let second = try RenderServiceTests.start(workers: 1) { $0.port = first.port }
      second.shutdown()
      Issue.record("a second service started on port \(first.port)")
    } catch {
      let message = "\(error)"
      #expect(message.contains("127.0.0.1:\(first.port)") && message.contains("in use"), "\(message)")
    }
    // Asked for on both, the port is shared.
    let shared = try RenderServiceTests.start(workers: 1) { $0.reusePort = true }
    defer { shared.shutdown() }
    let sharing = try RenderServiceTests.start(workers: 1) {
      $0.reusePort = true
      $0.port = shared.port
    }
    defer { sharing.shutdown() }
    #expect(try RawConnection.request(port: shared.port, "/health").response?.status == 200)
  }

  @Test func theConnectionSettingsComeFromTheConfigFile() throws {
    let folder = NSTemporaryDirectory() + "tessera-connection-config-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    func configuration(_ text: String) throws -> ServiceConfiguration {
      try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/serve.json"))
      return try ServiceConfiguration(file: folder + "/serve.json")
    }
    var read = try configuration(
      ##"{"listen": "127.0.0.1:0", "workers": 1, "connectionLimit": 4, "headerTimeout": 1, "bodyTimeout": 1.5, "maxConnectionsPerClient": 2, "reusePort": false, "drainSeconds": 0.5}"##
    )
    #expect(read.connectionLimit == 4 && read.headerTimeout == 1 && read.bodyTimeout == 1.5)
    #expect(read.maxConnectionsPerClient == 2 && !read.reusePort && read.drainSeconds == 0.5)
    let defaults = try configuration("{}")
    #expect(defaults.connectionLimit == 1024 && defaults.headerTimeout == 10 && defaults.bodyTimeout == 30)
    #expect(defaults.maxConnectionsPerClient == 64 && !defaults.reusePort && defaults.drainSeconds == 0)
    for bad in [
      ##"{"headerTimeout": 0}"##, ##"{"bodyTimeout": -1}"##, ##"{"maxConnectionsPerClient": -1}"##,
      ##"{"reusePort": 1}"##, ##"{"drainSeconds": "soon"}"##, ##"{"connectionLimit": 0}"##,
    ] {
      #expect(throws: (any Error).self, "\(bad)") { try configuration(bad) }
    }
    // The service started from the file holds to it over HTTP.
    read.workers = 1
    let service = try RenderService(configuration: read, gpu: .surfaceless)
    defer { service.shutdown() }
    let held = try (0..<2).map { _ in try RawConnection(port: service.port, from: "127.0.0.2") }
    #expect(eventually(within: 5) { service.connectionStats.open == 2 })
    let (capped, _) = try RawConnection.request(port: service.port, from: "127.0.0.2", "/health", timeout: 2)
    #expect(capped == nil)
    let others = try (0..<2).map { _ in try RawConnection(port: service.port, from: "127.0.0.3") }
    #expect(eventually(within: 5) { service.connectionStats.open == 4 })
    let (reserved, _) = try RawConnection.request(
      port: service.port, from: "127.0.0.4", "/maps/api/staticmap?center=0,0&zoom=2&size=32x32")
    #expect(reserved?.status == 503)
    #expect(try RawConnection.request(port: service.port, from: "127.0.0.4", "/health").response?.status == 200)
    let closed = RawConnection.closeTimes(held + others, timeout: 3)
    #expect(closed.allSatisfy { $0.map { $0 >= 0.95 && $0 < 1.6 } == true }, "\(closed)")
  }

  @Test func shutdownDrainsWhileTheListenerAnswers() throws {
    let service = try RenderServiceTests.start(workers: 1, queue: 8) { $0.drainSeconds = 1.5 }
    let statuses = Mutex<[Int]>([])
    let group = DispatchGroup()
    for index in 0..<3 {
      group.enter()
      Thread.detachNewThread {
        defer { group.leave() }
        let target = "/maps/api/staticmap?center=40,-74&zoom=\(16 + Double(index) * 0.2)&size=640x640&tilt=60"
        let status = (try? RawConnection.request(port: service.port, target, timeout: 30))?.response?.status ?? -1
        statuses.withLock { $0.append(status) }
      }
    }
    #expect(eventually(within: 10) { service.rendersInFlight == 3 })
    let started = Date()
    let finished = Atomic<Int>(0)  // 0: running, 1: true, 2: false
    let stopped = Mutex<Date?>(nil)
    Thread.detachNewThread {
      let result = service.shutdown()
      stopped.withLock { $0 = Date() }
      finished.store(result ? 1 : 2, ordering: .sequentiallyConsistent)
    }
    Thread.sleep(forTimeInterval: 0.1)
    // Draining: readiness fails, probes and the listener still answer, new renders are refused.
    let (ready, _) = try RawConnection.request(port: service.port, "/readyz")
    #expect(ready?.status == 503 && ready.map { String(decoding: $0.body, as: UTF8.self) } == "draining\n")
    #expect(ready?.header("Connection") == "close")
    #expect(try RawConnection.request(port: service.port, "/health").response?.status == 200)
    let (refused, _) = try RawConnection.request(port: service.port, "/maps/api/staticmap?center=0,0&zoom=2&size=32x32")
    #expect(refused?.status == 503 && refused?.header("Retry-After") == "1")
    // Still answering near the end of the drain delay.
    Thread.sleep(forTimeInterval: max(0, 1.3 - Date().timeIntervalSince(started)))
    #expect(try RawConnection.request(port: service.port, "/readyz").response?.status == 503)
    #expect(eventually(within: 30) { finished.load(ordering: .sequentiallyConsistent) != 0 })
    #expect(finished.load(ordering: .sequentiallyConsistent) == 1)
    let took = (stopped.withLock { $0 } ?? Date()).timeIntervalSince(started)
    #expect(took >= 1.5, "stopped after \(took) s")
    group.wait()
    // Every accepted render was answered with its map; then the port is closed.
    #expect(statuses.withLock { $0 } == [200, 200, 200])
    #expect(throws: RawConnection.Failure.self) { try RawConnection(port: service.port) }
  }
}
