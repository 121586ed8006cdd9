import Foundation
import TesseraNumbers

/// Where a command writes: standard output and standard error, replaceable in tests.
public final class Console: @unchecked Sendable {
  private let writeOut: (String) -> Void
  private let writeError: (String) -> Void

  /// A console writing to the process's stdout and stderr.
  public static func standard() -> Console {
    Console(
      out: { FileHandle.standardOutput.write(Data($0.utf8)) },
      error: { FileHandle.standardError.write(Data($0.utf8)) })
  }

  /// A console with custom sinks.
  public init(out: @escaping (String) -> Void, error: @escaping (String) -> Void) {
    writeOut = out
    writeError = error
  }

  /// Writes a line to standard output.
  public func print(_ line: String) { writeOut(line + "\n") }

  /// Writes a line to standard error.
  public func printError(_ line: String) { writeError(line + "\n") }
}

/// A command that ran but failed (render, I/O, a diff beyond the allowance): exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
