import Foundation
import Testing

/// The links between README.md and the pages of docs/ lead somewhere: every relative link names
/// a file that exists and, with a `#fragment`, a heading of that page (GitHub's anchors).
@Suite struct DocsLinkTests {
  /// GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`.
  static func anchor(_ heading: String) -> String {
    String(
      heading.lowercased().compactMap { character -> Character? in
        if character == " " { return "-" }
        return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
      })
  }

  /// The anchors of a page's headings.
  static func anchors(_ page: String) throws -> Set<String> {
    var inCode = false
    var anchors = Set<String>()
    for line in try DocsSources.text(page).components(separatedBy: "\n") {
      if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inCode.toggle() }
      guard !inCode, line.hasPrefix("#") else { continue }
      anchors.insert(anchor(String(line.drop { $0 == "#" }).trimmingCharacters(in: .whitespaces)))
    }
    return anchors
  }

  @Test func anchorsAreGitHubs() {
    #expect(Self.anchor("`tessera serve`") == "tessera-serve")
    #expect(Self.anchor("Google map styling and map IDs") == "google-map-styling-and-map-ids")
    #expect(Self.anchor("Data roots: where relative paths resolve") == "data-roots-where-relative-paths-resolve")
  }

  @Test func relativeLinksLeadSomewhere() throws {
    let link = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
    for page in try DocsSources.pages() {
      let text = try DocsSources.text(page)
      let folder = (page as NSString).deletingLastPathComponent
      for match in link.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        guard let range = Range(match.range(at: 1), in: text) else { continue }
        let target = String(text[range])
        guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let file =
          parts[0].isEmpty
          ? page : ((folder as NSString).appendingPathComponent(parts[0]) as NSString).standardizingPath
        let exists = FileManager.default.fileExists(atPath: DocsSources.root.appendingPathComponent(file).path)
        #expect(exists, "\(page): the link '\(target)' names no file")
        guard exists, parts.count == 2, file.hasSuffix(".md") else { continue }
        #expect(try Self.anchors(file).contains(parts[1]), "\(page): the link '\(target)' names no heading of \(file)")
      }
    }
  }
}
