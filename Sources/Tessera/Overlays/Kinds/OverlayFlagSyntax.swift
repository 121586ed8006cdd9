import TesseraNumbers

/// How a kind's command-line flag is written, `--OPTION FIRST[,key=value]…`: each part stands
/// for a field of the kind's scene entry, so a flag and a scene share one reader and its
/// errors. The CLI builds the entry from this description; the kind names no flag parser.
package struct OverlayFlagSyntax: Sendable {
  /// What a part's text becomes in the entry.
  package enum Value: Sendable, Equatable {
    /// A local file, made absolute against the working directory.
    case file
    /// A URL (holding `://`) as written, else a local file.
    case fileOrURL
    /// A number.
    case number
    /// `count` numbers separated by `:`.
    case numbers(count: Int)
    /// Text as written.
    case text
  }

  /// A `key=value` part and the entry field it sets.
  package struct Key: Sendable, Equatable {
    package let key: String
    package let field: String
    package let value: Value

    package init(_ key: String, _ field: String, _ value: Value) {
      (self.key, self.field, self.value) = (key, field, value)
    }
  }

  /// The option's name, without `--`.
  package let option: String
  /// The entry field the first part sets.
  package let firstField: String
  /// What the first part is.
  package let first: Value
  /// The `key=value` parts allowed after it.
  package let keys: [Key]
  /// Fields of which exactly one must be given, and the forms named in the error when not.
  package let exactlyOneOf: [String]
  package let forms: String

  package init(
    option: String, first: (field: String, value: Value), keys: [Key], exactlyOneOf: [String] = [],
    forms: String = ""
  ) {
    self.option = option
    (firstField, self.first) = first
    self.keys = keys
    self.exactlyOneOf = exactlyOneOf
    self.forms = forms
  }
}
