import TesseraNumbers

/// The `tessera` command line: dispatches to a command and maps outcomes to exit statuses
/// (0 success, 1 render/diff failure, 2 usage error), with errors on stderr in one line.
public enum TesseraCommandLine {
  /// The version printed by `tessera --version` and written into benchmark reports.
  public static let version = "0.1.0"

  static let commands: [any Command.Type] = [
    RenderCommand.self, ProjectCommand.self, InspectCommand.self, DiffCommand.self, BenchCommand.self,
    GPUsCommand.self, ConformanceCommand.self, ServeCommand.self, TilesCommand.self,
  ]

  /// Runs the command line `arguments` (without the program name) and returns the exit status.
  public static func run(_ arguments: [String], console: Console = .standard()) -> Int32 {
    guard let first = arguments.first else {
      console.printError(generalHelp)
      return 2
    }
    if first == "--help" || first == "-h" || first == "help" {
      if first == "help", arguments.count > 1, let command = command(named: arguments[1]) {
        console.print(command.help)
      } else {
        console.print(generalHelp)
      }
      return 0
    }
    if first == "--version" {
      console.print("tessera \(version)")
      return 0
    }
    guard let command = command(named: first) else {
      console.printError("tessera: unknown command '\(first)' (see tessera --help)")
      return 2
    }
    let rest = Array(arguments.dropFirst())
    let beforeSeparator = rest.prefix { $0 != "--" }
    if beforeSeparator.contains("--help") || beforeSeparator.contains("-h") {
      console.print(command.help)
      return 0
    }
    do {
      let parsed = try ParsedArguments(rest, specs: command.options, command: command.name)
      return try command.run(parsed, console: console)
    } catch let error as UsageError {
      console.printError("tessera \(command.name): \(error.description)")
      return 2
    } catch {
      console.printError("tessera \(command.name): \(oneLine(error))")
      return 1
    }
  }

  static func command(named name: String) -> (any Command.Type)? {
    commands.first { $0.name == name }
  }

  static var generalHelp: String {
    let width = commands.map { $0.name.count }.max() ?? 0
    let lines = commands.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
    return """
      tessera \(version): a headless map renderer (EGL + OpenGL ES 3)

      usage: tessera <command> [options]

      commands:
      \(lines.joined(separator: "\n"))

      'tessera <command> --help' describes a command's options.
      Exit status: 0 success, 1 render or comparison failure, 2 usage error.
      """
  }

  /// An error's message on one line.
  static func oneLine(_ error: any Error) -> String {
    "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}

/// A `tessera` subcommand.
protocol Command: Sendable {
  /// The word after `tessera`.
  static var name: String { get }
  /// One line for the command list.
  static var summary: String { get }
  /// The full `--help` text.
  static var help: String { get }
  /// The options it accepts.
  static var options: [OptionSpec] { get }
  /// Runs it; returns the exit status, throws ``UsageError`` (2) or anything else (1).
  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32
}
