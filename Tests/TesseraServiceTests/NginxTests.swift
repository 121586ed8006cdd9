import Dispatch
import Foundation
import Synchronization
import TesseraService
import TesseraTestSupport
import Testing

/// Debian's nginx on loopback in front of two `tessera serve` instances: one is shut down in
/// the middle of a bounded load and no request fails.
@Suite(.serialized) struct NginxTests {
  static let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }

  @Test func noRequestFailsWhenAnInstanceStopsBehindNginx() throws {
    guard let nginx = NginxTests.nginx else {
      print("skipped nginx test: nginx is not installed (make test installs it)")
      return
    }
    let first = try RenderServiceTests.start(workers: 1)
    let second = try RenderServiceTests.start(workers: 1)
    defer { second.shutdown() }
    let folder = NSTemporaryDirectory() + "tessera-nginx-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let port = try freePort()
    let config = """
      \(geteuid() == 0 ? "user root;" : "")
      daemon off;
      worker_processes 1;
      pid \(folder)/nginx.pid;
      error_log \(folder)/error.log;
      events { worker_connections 256; }
      http {
        access_log off;
        client_body_temp_path \(folder)/body;
        proxy_temp_path \(folder)/proxy;
        fastcgi_temp_path \(folder)/fastcgi;
        uwsgi_temp_path \(folder)/uwsgi;
        scgi_temp_path \(folder)/scgi;
        upstream tessera {
          server 127.0.0.1:\(first.port) max_fails=1 fail_timeout=30s;
          server 127.0.0.1:\(second.port) max_fails=1 fail_timeout=30s;
        }
        server {
          listen 127.0.0.1:\(port);
          location / {
            proxy_pass http://tessera;
            proxy_next_upstream error timeout http_502 http_503 non_idempotent;
            proxy_next_upstream_tries 3;
            proxy_connect_timeout 2s;
          }
        }
      }
      """
    try Data(config.utf8).write(to: URL(fileURLWithPath: "\(folder)/nginx.conf"))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: nginx)
    process.arguments = ["-p", folder, "-c", "\(folder)/nginx.conf"]
    try process.run()
    defer {
      process.terminate()
      process.waitUntilExit()
    }
    // Wait (bounded) for nginx to answer.
    let ready = Date().addingTimeInterval(20)
    while (try? LoopbackClient.request(port: port, "/health", timeout: 2))?.status != 200 && Date() < ready {
      Thread.sleep(forTimeInterval: 0.1)
    }
    #expect(try LoopbackClient.request(port: port, "/health").status == 200)
    // 32 requests from 4 client threads; after 8 answers the first instance shuts down.
    let statuses = Mutex<[Int]>([])
    let next = Atomic<Int>(0)
    let stopped = Atomic<Bool>(false)
    let group = DispatchGroup()
    for _ in 0..<4 {
      group.enter()
      Thread.detachNewThread {
        defer { group.leave() }
        while true {
          let index = next.add(1, ordering: .relaxed).oldValue
          guard index < 32 else { return }
          let target = "/maps/api/staticmap?center=40,-74&zoom=\(14 + Double(index) * 0.1)&size=128x128&tilt=30"
          let status = (try? LoopbackClient.request(port: port, target, timeout: 60))?.status ?? -1
          let count = statuses.withLock { list -> Int in
            list.append(status)
            return list.count
          }
          if count == 8, stopped.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
            first.shutdown()
          }
        }
      }
    }
    group.wait()
    let seen = statuses.withLock { $0 }
    let didStop = stopped.load(ordering: .relaxed)
    #expect(didStop)
    #expect(seen.count == 32 && seen.allSatisfy { $0 == 200 }, "\(seen)")
  }

  /// The shipped `deploy/nginx.conf`, as it is but for the upstream, the port and the cache
  /// folder, in front of a service with its default configuration: a request with a planted
  /// `Host` is cached like any other, and what is cached names no other host.
  @Test func theShippedConfigurationCachesNoPlantedHost() throws {
    guard let nginx = NginxTests.nginx else {
      print("skipped nginx cache test: nginx is not installed (make test installs it)")
      return
    }
    let service = try RenderServiceTests.start(workers: 1)
    defer { service.shutdown() }
    let folder = NSTemporaryDirectory() + "tessera-nginx-cache-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let port = try freePort()
    var shipped = try String(contentsOfFile: PackagePaths.path("deploy/nginx.conf"), encoding: .utf8)
    shipped = shipped.replacingOccurrences(
      of: #"upstream tessera \{[^}]*\}"#, with: "upstream tessera { server 127.0.0.1:\(service.port); keepalive 4; }",
      options: .regularExpression)
    shipped = shipped.replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(port);")
    shipped = shipped.replacingOccurrences(of: "/var/cache/nginx/tessera", with: folder + "/cache")
    #expect(shipped.contains("127.0.0.1:\(port)") && shipped.contains(folder + "/cache"))
    let config = """
      \(geteuid() == 0 ? "user root;" : "")
      daemon off;
      worker_processes 1;
      pid \(folder)/nginx.pid;
      error_log \(folder)/error.log;
      events { worker_connections 64; }
      http {
        access_log off;
        client_body_temp_path \(folder)/body;
        proxy_temp_path \(folder)/proxy;
        fastcgi_temp_path \(folder)/fastcgi;
        uwsgi_temp_path \(folder)/uwsgi;
        scgi_temp_path \(folder)/scgi;
      \(shipped)
      }
      """
    try Data(config.utf8).write(to: URL(fileURLWithPath: "\(folder)/nginx.conf"))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: nginx)
    process.arguments = ["-p", folder, "-c", "\(folder)/nginx.conf"]
    try process.run()
    defer {
      process.terminate()
      process.waitUntilExit()
    }
    let ready = Date().addingTimeInterval(20)
    while (try? LoopbackClient.request(port: port, "/health", timeout: 2))?.status != 200 && Date() < ready {
      Thread.sleep(forTimeInterval: 0.1)
    }
    for target in ["/styles.json", "/styles/normal.json", "/index.json", "/styles/normal/wmts.xml"] {
      let planted = try LoopbackClient.request(port: port, target, headers: ["Host": "attacker.example"])
      #expect(planted.status == 200, "\(target)")
      let text = String(decoding: planted.body, as: UTF8.self)
      #expect(!text.contains("attacker.example"), "\(target): \(text.prefix(200))")
      let honest = try LoopbackClient.request(port: port, target, headers: ["Host": "maps.example.org"])
      #expect(!String(decoding: honest.body, as: UTF8.self).contains("attacker.example"), "\(target)")
    }
    // The planted request was answered and cached like the others: it did reach the cache.
    let again = try LoopbackClient.request(port: port, "/styles.json", headers: ["Host": "attacker.example"])
    #expect(again.header("X-Cache-Status") == "HIT", "\(again.headers)")
  }

  func freePort() throws -> UInt16 {
    let silent = try SilentServer()
    defer { silent.close() }
    return silent.port
  }
}
