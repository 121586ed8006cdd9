import TesseraNumbers

/// The `FIRST,key=value,…` specs of the command line's overlay flags (`--marker`, `--circle`,
/// `--polyline`, `--ground-overlay`, `--my-location`, …), split one way for all of them:
/// commas split parts, except inside parentheses (`color=rgb(1,2,3)`) and inside double
/// quotes (`title="Hello, World"`), where `\"` is a quote and `\\` a backslash. Quotes are
/// removed from the parts, so `title="a, b"` reads as the key `title` with the value `a, b`.
enum FlagSpec {
  /// The parts of `text`, quotes removed and escapes resolved; `option` names the flag in
  /// errors (an unclosed quote, an escape of another character).
  static func parts(_ text: String, option: String) throws(UsageError) -> [String] {
    var parts: [String] = []
    var current = ""
    var depth = 0
    var quoted = false
    var escaped = false
    for character in text {
      if quoted {
        if escaped {
          guard character == "\"" || character == "\\" else {
            throw UsageError(
              "--\(option): inside quotes a backslash escapes only \" or \\, found '\\\(character)' in '\(text)'")
          }
          current.append(character)
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          quoted = false
        } else {
          current.append(character)
        }
        continue
      }
      switch character {
      case "\"":
        quoted = true
        continue
      case "(": depth += 1
      case ")": depth = max(depth - 1, 0)
      case "," where depth == 0:
        parts.append(current)
        current = ""
        continue
      default: break
      }
      current.append(character)
    }
    guard !quoted else { throw UsageError("--\(option): a quote is not closed in '\(text)'") }
    parts.append(current)
    return parts
  }
}
