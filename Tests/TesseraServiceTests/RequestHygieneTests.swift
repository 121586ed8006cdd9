import Foundation
import Synchronization
import TesseraJSON
import TesseraService
import Testing

/// Requests that HTTP clients do not send, over raw sockets on loopback: bodies whose length
/// is ambiguous, bodies announced too large, header values and log fields that carry line
/// breaks and quotes.
@Suite(.serialized) struct RequestHygieneTests {
  /// Sends `head` (and nothing more) and reads what comes within `timeout` seconds.
  static func exchange(_ port: UInt16, _ head: String, timeout: Double = 3) throws -> (
    response: RawResponse?, text: String, closed: Bool
  ) {
    let connection = try RawConnection(port: port)
    connection.send(head)
    let (bytes, closed) = connection.receive(timeout: timeout)
    return (RawResponse(bytes), String(decoding: bytes, as: UTF8.self), closed)
  }

  @Test func ambiguousBodyLengthsAreRefusedBeforeTheBody() throws {
    let service = try RenderServiceTests.start()
    defer { service.shutdown() }
    // Each head announces a body that is never sent: the 400 comes without waiting for it, and
    // the connection closes.
    for framing in [
      "Content-Length: 5\r\nContent-Length: 5", "Content-Length: 5\r\nContent-Length: 6",
      "Content-Length: 5\r\nTransfer-Encoding: chunked", "Transfer-Encoding: chunked\r\nContent-Length: 5",
      "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked", "Transfer-Encoding: gzip",
      "Transfer-Encoding: gzip, chunked", "content-length: 5\r\nCONTENT-LENGTH: 5",
    ] {
      let start = Date()
      let (response, text, closed) = try RequestHygieneTests.exchange(
        service.port, "POST /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\(framing)\r\n\r\n")
      #expect(response?.status == 400 && closed, "\(framing.debugDescription): \(text.prefix(200))")
      #expect(Date().timeIntervalSince(start) < 1, "\(framing.debugDescription)")
    }
    // One length, told once, is read and answered; so is a chunked body.
    let (plain, _, _) = try RequestHygieneTests.exchange(
      service.port, "POST /health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
    #expect(plain?.status == 200)
    let (chunked, _, _) = try RequestHygieneTests.exchange(
      service.port,
      "POST /health HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        + "5\r\nhello\r\n0\r\n\r\n")
    #expect(chunked?.status == 200)
  }

  @Test func anExpectedBodyOverTheLimitGets413WithoutContinue() throws {
    let service = try RenderServiceTests.start { $0.maxBodyBytes = 1000 }
    defer { service.shutdown() }
    let (refused, text, closed) = try RequestHygieneTests.exchange(
      service.port,
      "POST /render HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: 1001\r\n\r\n")
    #expect(text.hasPrefix("HTTP/1.1 413 ") && !text.contains("100 Continue"), "\(text.prefix(200))")
    #expect(refused?.status == 413 && closed)
    // Within the limit, the client is told to go on, and its body is read.
    let connection = try RawConnection(port: service.port)
    connection.send("POST /health HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: 1000\r\n\r\n")
    let interim = String(decoding: connection.receive(timeout: 3, until: "\r\n\r\n").bytes, as: UTF8.self)
    #expect(interim.hasPrefix("HTTP/1.1 100 Continue"), "\(interim)")
    connection.send(String(repeating: "x", count: 1000))
    let final = String(decoding: connection.receive(timeout: 3, until: "ok\n").bytes, as: UTF8.self)
    #expect(final.hasPrefix("HTTP/1.1 200 "), "\(final.prefix(200))")
  }

  @Test func headerValuesAreCleanedOfLineBreaks() throws {
    // An icon name with CR LF in it is named in the warning header: the header is sent, on one
    // line, and forges no header of its own.
    let service = try RenderServiceTests.start()
    defer { service.shutdown() }
    let (response, text, _) = try RequestHygieneTests.exchange(
      service.port,
      "GET /maps/api/staticmap?center=0,0&zoom=2&size=32x32&markers=icon:http://evil%0D%0AX-Injected:%20yes%0Ab/x.png%7C0,0"
        + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", timeout: 10)
    #expect(response?.status == 200, "\(text.prefix(300))")
    let warning = try #require(response?.header("X-Staticmap-API-Warning"), "\(response?.headerLines ?? [])")
    #expect(warning.contains("http://evil  X-Injected: yes b/x.png"), "\(warning)")
    #expect(response?.header("X-Injected") == nil)
    #expect(response?.headerLines.allSatisfy { !$0.contains("\r") && !$0.contains("\n") } == true)
  }

  @Test func accessLogLinesEscapeEveryField() throws {
    let lines = Mutex<[String]>([])
    let service = try RenderServiceTests.start {
      $0.accessLog = true
      $0.logSink = { line in lines.withLock { $0.append(line) } }
    }
    defer { service.shutdown() }
    // Paths the server decodes (quotes, backslashes, CR, LF, other controls, a whole forged
    // line), one sent raw, and methods with quotes and backslashes.
    let forged = "\"}\n{\"client\":\"1.2.3.4\",\"method\":\"GET\",\"route\":\"health\",\"status\":200}"
    let requests: [(method: String, target: String, path: String)] = [
      ("GET", "/a%22b%5Cc%0D%0Ad%01e%7Ff%09g", "/a\"b\\c\r\nd\u{01}e\u{7F}f\tg"),
      ("GET", "/x" + forged.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!, "/x" + forged),
      ("GET", "/raw\"quote\\slash", "/raw\"quote\\slash"),
      ("GE\"T\\", "/health", "/health"),
      ("P\"}{\"OST", "/nowhere%0A", "/nowhere\n"),
    ]
    for request in requests {
      let (response, text, _) = try RequestHygieneTests.exchange(
        service.port, "\(request.method) \(request.target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
      #expect(response != nil, "\(request.method) \(request.target): \(text.prefix(200))")
    }
    // One line per request (the log is written after the answer: wait for it, bounded).
    #expect(eventually(within: 5) { lines.withLock { $0.count } >= requests.count })
    Thread.sleep(forTimeInterval: 0.1)
    let logged = lines.withLock { $0 }
    #expect(logged.count == requests.count, "\(logged)")
    let text = logged.joined()
    #expect(text.split(separator: "\n").count == requests.count, "\(text)")
    // Each line is one JSON object, and each request's method and path come back exactly (the
    // lines may come in another order: requests are answered on several threads).
    var objects: [JSONObject] = []
    for line in logged {
      #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" && $0 != "\r" })
      let object = try #require(try JSONParser.parse(Array(line.utf8)).object, "\(line)")
      #expect(object["client"] == .string("127.0.0.1"), "\(line)")
      #expect(object["route"]?.string != nil && object["status"]?.number != nil, "\(line)")
      objects.append(object)
    }
    for request in requests {
      let matching = objects.filter {
        $0["method"] == .string(request.method) && $0["path"] == .string(request.path)
      }
      #expect(matching.count == 1, "\(request.method) \(request.path.debugDescription): \(logged)")
    }
  }
}
