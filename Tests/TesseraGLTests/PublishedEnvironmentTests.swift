import Foundation
import Synchronization
import TesseraGL
import Testing

/// glibc's `mallopt` (declared in `malloc.h`, which the Glibc module leaves out).
@_silgen_name("mallopt")
private func mallopt(_ option: Int32, _ value: Int32) -> Int32

@Suite struct PublishedEnvironmentTests {
  /// A variable set is read back by `getenv` and Foundation, setting it again replaces its value
  /// (one entry), removing it removes it, and the variables of the test run stay as they were.
  @Test func setReplaceAndRemove() {
    let name = "TESSERA_PUBLISHED_ENVIRONMENT_TEST"
    let before = ProcessInfo.processInfo.environment
    PublishedEnvironment.set(name, "first")
    #expect(getenv(name).map { String(cString: $0) } == "first")
    PublishedEnvironment.set(name, "second=with equals")
    #expect(getenv(name).map { String(cString: $0) } == "second=with equals")
    #expect(ProcessInfo.processInfo.environment[name] == "second=with equals")
    let entries = Self.entries().filter { $0.hasPrefix(name + "=") }
    #expect(entries == ["\(name)=second=with equals"])
    PublishedEnvironment.remove(name)
    #expect(getenv(name) == nil)
    PublishedEnvironment.remove(name)
    #expect(!Self.entries().contains { $0.hasPrefix(name + "=") })
    let after = ProcessInfo.processInfo.environment
    for kept in ["PATH", "HOME"] { #expect(after[kept] == before[kept], "\(kept)") }
  }

  /// A name that another name begins with is not touched by removing the shorter one.
  @Test func removingANameLeavesLongerNames() {
    PublishedEnvironment.set("TESSERA_PE_AB", "long")
    PublishedEnvironment.set("TESSERA_PE_A", "short")
    PublishedEnvironment.remove("TESSERA_PE_A")
    #expect(getenv("TESSERA_PE_AB").map { String(cString: $0) } == "long")
    #expect(getenv("TESSERA_PE_A") == nil)
    PublishedEnvironment.remove("TESSERA_PE_AB")
  }

  /// Threads reading the environment while another adds and removes thousands of names never
  /// read freed memory: with glibc filling freed memory (`M_PERTURB`), `setenv` doing the
  /// same stops the process with a segmentation fault (a reader follows the filler in an
  /// array `setenv` moved and freed). Run in a child process, so that a crash fails the test
  /// instead of ending the run; the readers stop after 200,000 reads or 5 s.
  @Test func readersOnOtherThreadsNeverSeeFreedMemory() async {
    await #expect(processExitsWith: .success) {
      _ = mallopt(SharedDisplayTests.perturbOption, 0xA5)
      let stop = Atomic<Bool>(false)
      let started = DispatchSemaphore(value: 0)
      let readers = DispatchGroup()
      for _ in 0..<3 {
        readers.enter()
        Thread {
          defer { readers.leave() }
          started.signal()
          let deadline = Date().addingTimeInterval(5)
          var reads = 0
          while !stop.load(ordering: .relaxed), reads < 200_000, Date() < deadline {
            guard getenv("PATH") != nil else { exit(4) }
            _ = getenv("TESSERA_PE_NOT_SET")
            reads += 1
          }
        }.start()
      }
      for _ in 0..<3 { started.wait() }
      for round in 0..<2000 {
        PublishedEnvironment.set("TESSERA_PE_\(round)", String(repeating: "x", count: round % 50))
        if round % 3 == 0 { PublishedEnvironment.remove("TESSERA_PE_\(round / 2)") }
      }
      stop.store(true, ordering: .relaxed)
      readers.wait()
      guard getenv("TESSERA_PE_1999") != nil, getenv("TESSERA_PE_0") == nil else { exit(3) }
      exit(0)
    }
  }

  /// The process's environment entries, in order.
  static func entries() -> [String] {
    var result: [String] = []
    var index = 0
    while let entry = environ[index] {
      result.append(String(cString: entry))
      index += 1
    }
    return result
  }
}
