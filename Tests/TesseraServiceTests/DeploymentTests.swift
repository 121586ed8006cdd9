import Foundation
import TesseraTestSupport
import Testing

/// The files of `deploy/`: the Kubernetes manifests against the Kubernetes schemas (offline,
/// with the kubernetes-validate tool `make test` installs into .build/pytools) and the nginx
/// configuration through `nginx -t`.
@Suite struct DeploymentTests {
  static let root = PackagePaths.root
  static let tools = PackagePaths.path(".build/pytools")

  /// Runs `arguments` and returns its exit status and output.
  static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
  }

  @Test func kubernetesManifestsMatchTheSchemas() throws {
    guard FileManager.default.fileExists(atPath: DeploymentTests.tools + "/kubernetes_validate") else {
      print(
        "skipped Kubernetes schema check: kubernetes-validate is not installed in .build/pytools (make test installs it)"
      )
      return
    }
    let environment = ["PYTHONPATH": DeploymentTests.tools]
    let manifests = DeploymentTests.root + "/deploy/kubernetes/tessera.yaml"
    let (status, output) = try DeploymentTests.run(
      ["python3", "-m", "kubernetes_validate", "--strict", manifests], environment: environment)
    #expect(status == 0, "\(output)")
    #expect(output.contains("deployment/tessera") && output.contains("horizontalpodautoscaler/tessera"))
    // The check can fail: a manifest with a wrong field type is refused.
    let broken = NSTemporaryDirectory() + "tessera-broken-\(UUID().uuidString).yaml"
    defer { try? FileManager.default.removeItem(atPath: broken) }
    let text = try String(contentsOfFile: manifests, encoding: .utf8).replacingOccurrences(
      of: "replicas: 2", with: "replicas: two")
    try text.write(toFile: broken, atomically: true, encoding: .utf8)
    let (brokenStatus, _) = try DeploymentTests.run(
      ["python3", "-m", "kubernetes_validate", "--strict", broken], environment: environment)
    #expect(brokenStatus != 0)
  }

  @Test func theTilesIndexedJobMatchesTheSchemas() throws {
    guard FileManager.default.fileExists(atPath: DeploymentTests.tools + "/kubernetes_validate") else {
      print(
        "skipped Kubernetes schema check: kubernetes-validate is not installed in .build/pytools (make test installs it)"
      )
      return
    }
    let environment = ["PYTHONPATH": DeploymentTests.tools]
    let manifest = DeploymentTests.root + "/deploy/kubernetes/tiles-job.yaml"
    let (status, output) = try DeploymentTests.run(
      ["python3", "-m", "kubernetes_validate", "--strict", manifest], environment: environment)
    #expect(status == 0, "\(output)")
    #expect(output.contains("job/tessera-tiles"))
    let text = try String(contentsOfFile: manifest, encoding: .utf8)
    // The shard count the pods read equals the Job's completions.
    #expect(text.contains("completions: 8") && text.contains("value: \"8\"") && text.contains("--shard auto"))
    let broken = NSTemporaryDirectory() + "tessera-broken-job-\(UUID().uuidString).yaml"
    defer { try? FileManager.default.removeItem(atPath: broken) }
    try text.replacingOccurrences(of: "completionMode: Indexed", with: "completionMode: [Indexed]").write(
      toFile: broken, atomically: true, encoding: .utf8)
    let (brokenStatus, _) = try DeploymentTests.run(
      ["python3", "-m", "kubernetes_validate", "--strict", broken], environment: environment)
    #expect(brokenStatus != 0)
  }

  @Test func theNginxConfigurationParses() throws {
    guard let nginx = NginxTests.nginx else {
      print("skipped nginx -t: nginx is not installed (make test installs it)")
      return
    }
    let folder = NSTemporaryDirectory() + "tessera-nginx-t-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // The shipped file with its cache in the test's folder, inside an http block (`-t` binds no
    // port).
    let shipped = try String(contentsOfFile: DeploymentTests.root + "/deploy/nginx.conf", encoding: .utf8)
      .replacingOccurrences(of: "/var/cache/nginx/tessera", with: folder + "/cache")
    try shipped.write(toFile: folder + "/tessera.conf", atomically: true, encoding: .utf8)
    let wrapper = """
      pid \(folder)/nginx.pid;
      error_log \(folder)/error.log;
      events { worker_connections 16; }
      http {
        client_body_temp_path \(folder)/body; proxy_temp_path \(folder)/proxy; fastcgi_temp_path \(folder)/f;
        uwsgi_temp_path \(folder)/u; scgi_temp_path \(folder)/s;
        include \(folder)/tessera.conf;
      }
      """
    try wrapper.write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
    let (status, output) = try DeploymentTests.run([nginx, "-t", "-p", folder, "-c", folder + "/nginx.conf"])
    #expect(status == 0 && output.contains("syntax is ok"), "\(output)")
  }

  /// The runtime image gives the service user (`nobody`, without a home) a cache folder of its
  /// own, writable by no one else, before it switches to that user: without it Mesa's shader
  /// cache and the linked programs are off and every worker compiles its pipelines.
  @Test func theRuntimeImageGivesTheServiceUserACacheFolder() throws {
    let dockerfile = try String(contentsOfFile: Self.root + "/deploy/Dockerfile", encoding: .utf8)
    let runtime = try #require(dockerfile.components(separatedBy: "FROM debian").last)
    let lines = runtime.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let environment = try #require(lines.firstIndex { $0.hasPrefix("ENV XDG_CACHE_HOME=") })
    let folder = String(lines[environment].dropFirst("ENV XDG_CACHE_HOME=".count))
    #expect(folder.hasPrefix("/"))
    let user = try #require(lines.firstIndex(of: "USER nobody"))
    let made = lines.firstIndex {
      $0.hasPrefix("RUN ") && $0.contains("mkdir -p \(folder)") && $0.contains("chown nobody")
        && $0.contains("chmod 0700 \(folder)")
    }
    #expect(made.map { $0 < user } == true, "the folder is made, given to nobody and narrowed before USER")
    #expect(environment < user)
  }

  /// The runtime image has what the served pages and the text need: Leaflet and every font
  /// package `make` installs.
  @Test func theRuntimeImageHasLeafletAndTheFonts() throws {
    let dockerfile = try String(contentsOfFile: Self.root + "/deploy/Dockerfile", encoding: .utf8)
    let runtime = try #require(dockerfile.components(separatedBy: "FROM debian").last)
    let makefile = try String(contentsOfFile: Self.root + "/Makefile", encoding: .utf8)
    let fonts = makefile.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\\" })
      .filter { $0.hasPrefix("fonts-") }.map(String.init)
    #expect(fonts.count >= 3, "\(fonts)")
    for package in fonts + ["libjs-leaflet"] {
      #expect(runtime.contains(package), "\(package) is not installed in the runtime image")
    }
  }
}
