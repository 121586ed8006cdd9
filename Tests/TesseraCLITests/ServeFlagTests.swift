import Foundation
import Testing

/// `tessera serve`'s connection flags are read and checked before anything starts.
@Suite struct ServeFlagTests {
  @Test(arguments: [
    ("--header-timeout", "0"), ("--header-timeout", "soon"), ("--body-timeout", "-1"), ("--drain", "nan"),
    ("--max-connections-per-client", "-2"), ("--max-connections-per-client", "many"),
  ])
  func badConnectionFlagsAreUsageErrors(_ flag: String, _ value: String) {
    let run = CapturedRun(["serve", "--listen", "127.0.0.1:0", flag, value])
    #expect(run.status == 2, "\(flag) \(value): \(run.error)")
    #expect(run.error.contains(flag), "\(run.error)")
  }

  @Test func theConnectionFlagsAreListed() {
    let help = CapturedRun(["serve", "--help"]).out
    for flag in ["--header-timeout", "--body-timeout", "--max-connections-per-client", "--drain", "--reuse-port"] {
      #expect(help.contains(flag), "\(flag)")
    }
  }
}
