import TesseraNumbers

/// One option a command accepts.
struct OptionSpec: Sendable {
  /// The long name without dashes, e.g. `center`.
  let name: String
  /// Whether the option takes a value (`--zoom 15`); false for flags (`--orbit`).
  let takesValue: Bool
  /// Whether it may be given more than once.
  let repeatable: Bool

  static func value(_ name: String, repeatable: Bool = false) -> OptionSpec {
    OptionSpec(name: name, takesValue: true, repeatable: repeatable)
  }

  static func flag(_ name: String) -> OptionSpec {
    OptionSpec(name: name, takesValue: false, repeatable: false)
  }
}

/// A command line split into options, flags and positional arguments.
struct ParsedArguments: Sendable {
  private(set) var values: [String: [String]] = [:]
  private(set) var flags: Set<String> = []
  private(set) var positionals: [String] = []
  /// Every option in command-line order (flags with an empty value).
  private(set) var ordered: [(name: String, value: String)] = []
  let command: String

  /// Splits `arguments` by `specs`; `--name value` and `--name=value` are both accepted (a value
  /// starting with `--` only in the second form), and `--` ends option parsing.
  init(_ arguments: [String], specs: [OptionSpec], command: String) throws(UsageError) {
    self.command = command
    let byName = Dictionary(uniqueKeysWithValues: specs.map { ($0.name, $0) })
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard !optionsEnded, argument.hasPrefix("--"), argument.count > 2 else {
        if argument == "--" && !optionsEnded {
          optionsEnded = true
        } else {
          positionals.append(argument)
        }
        continue
      }
      var name = String(argument.dropFirst(2))
      var inlineValue: String?
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      guard let spec = byName[name] else {
        throw UsageError("unknown option '--\(name)' for 'tessera \(command)' (see tessera \(command) --help)")
      }
      if spec.takesValue {
        let value: String
        if let inlineValue {
          value = inlineValue
        } else {
          guard index < arguments.count else { throw UsageError("option '--\(name)' needs a value") }
          // `--zoom --output x.png`: the value is missing, not "--output" (write `--name=--x`
          // for a value that starts with two dashes).
          guard !(arguments[index].hasPrefix("--") && arguments[index].count > 2) else {
            throw UsageError("option '--\(name)' needs a value, found option '\(arguments[index])'")
          }
          value = arguments[index]
          index += 1
        }
        if values[name] != nil && !spec.repeatable {
          throw UsageError("option '--\(name)' given more than once")
        }
        values[name, default: []].append(value)
        ordered.append((name, value))
      } else {
        guard inlineValue == nil else { throw UsageError("option '--\(name)' takes no value") }
        flags.insert(name)
        ordered.append((name, ""))
      }
    }
  }

  /// The value of a single-valued option, if given.
  func value(_ name: String) -> String? { values[name]?.last }

  /// Every value of a repeatable option, in order.
  func allValues(_ name: String) -> [String] { values[name] ?? [] }

  /// Whether a flag was given.
  func has(_ name: String) -> Bool { flags.contains(name) }

  /// Requires exactly `count` positional arguments named by `names` (for the message).
  func requirePositionals(_ names: [String]) throws(UsageError) -> [String] {
    guard positionals.count == names.count else {
      let expected = names.map { "<\($0)>" }.joined(separator: " ")
      throw UsageError(
        "'tessera \(command)' expects \(expected), got \(positionals.count) argument(s)"
          + " (see tessera \(command) --help)")
    }
    return positionals
  }
}

/// A command line that cannot be used: exit status 2.
struct UsageError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
