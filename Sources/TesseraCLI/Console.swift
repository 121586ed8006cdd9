import Foundation

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

/// Writes bytes to a file, replacing it; errors name the path.
enum FileOutput {
  static func write(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
    do {
      try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw CommandFailure("cannot write \(path): \((error as NSError).localizedDescription)")
    }
  }

  static func read(_ path: String) throws(CommandFailure) -> [UInt8] {
    do {
      return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
      throw CommandFailure("cannot read \(path): \((error as NSError).localizedDescription)")
    }
  }
}

/// A command that ran but failed (render, I/O, a diff beyond the allowance): exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
