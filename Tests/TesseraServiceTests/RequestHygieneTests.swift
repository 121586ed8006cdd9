import Foundation
import Synchronization
import TesseraJSON
import TesseraService
import Testing

/// Requests that HTTP clients do not send, over raw sockets on loopback: header values and log
/// fields that carry line breaks and quotes.
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
