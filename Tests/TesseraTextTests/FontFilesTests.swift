import Foundation
import Testing

@testable import TesseraText

/// Finding font files and matching font names, against Foundation's ways of doing the same.
@Suite struct FontFilesTests {
  /// What Foundation's directory enumerator lists under `folder` with a font suffix, as
  /// `folder/item` paths, sorted: the walk the catalog used before.
  static func enumeratorFontPaths(_ folder: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
    var files: [String] = []
    while let item = walker.nextObject() as? String {
      let lower = item.lowercased()
      let isFont = lower.hasSuffix(".ttf") || lower.hasSuffix(".otf") || lower.hasSuffix(".ttc")
      if isFont { files.append(folder + "/" + item) }
    }
    return files.sorted()
  }

  /// A tree with nested and hidden folders, upper-case suffixes, a link to a font, a dangling
  /// link, a link to a folder (listed by neither, not descended) and other files: the same
  /// paths as Foundation's enumerator.
  @Test func theWalkListsWhatFoundationsEnumeratorLists() throws {
    let root = NSTemporaryDirectory() + "tessera-font-walk-\(getpid())"
    let manager = FileManager.default
    defer { try? manager.removeItem(atPath: root) }
    for folder in ["a/b", "real", ".hidden", "empty"] {
      try manager.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
    }
    for file in ["a/b/x.TTF", "a/y.otf", "a/b/notes.txt", "real/r.ttf", ".hidden/h.ttc", "z.Ttc", "ttf", "a.ttf.bak"] {
      #expect(manager.createFile(atPath: root + "/" + file, contents: Data([0])))
    }
    try manager.createSymbolicLink(atPath: root + "/a/link", withDestinationPath: "../real")
    try manager.createSymbolicLink(atPath: root + "/f.ttf", withDestinationPath: "real/r.ttf")
    try manager.createSymbolicLink(atPath: root + "/dangling.otf", withDestinationPath: "/nonexistent/font.otf")
    let walked = FontFiles.paths(in: [root])
    #expect(walked == Self.enumeratorFontPaths(root))
    #expect(walked.count == 7)
    #expect(!walked.contains { $0.contains("/a/link/") })
    #expect(FontFiles.paths(in: [root + "/missing"]).isEmpty)
  }

  /// The system's font folders: the same files as Foundation's enumerator finds.
  @Test func theSystemFoldersGiveTheSameFiles() {
    let expected = FontLibrary.systemFolders.flatMap(Self.enumeratorFontPaths).sorted()
    guard !expected.isEmpty else {
      print("skipped the system font walk test: no fonts in \(FontLibrary.systemFolders)")
      return
    }
    #expect(FontFiles.paths(in: FontLibrary.systemFolders) == expected)
  }

  /// Names reduced for matching: the ASCII path keeps exactly the letters and digits Foundation's
  /// `alphanumerics` keeps, lower-cased, for every printable ASCII character and for the names of
  /// every face on this system; other names take Foundation's path.
  @Test func namesNormaliseAsWithFoundationsCharacterSets() {
    func reference(_ name: String) -> String {
      String(name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }
    let printable = (32...127).map { String(UnicodeScalar(UInt8($0))) }
    var names =
      printable + ["Noto Sans Regular", "NotoSans-Regular", "DejaVu Sans Book", "Noto Sans CJK JP", "", "Ünïcødé Sans"]
    for face in FontLibrary.system.faces {
      names += [face.fullName, face.family + " " + face.style, FontLibrary.fileStem(face.path)]
    }
    for name in names { #expect(FontLibrary.normalized(name) == reference(name), "\(name)") }
  }

  /// File stems: the last path component up to its first dot.
  @Test func fileStemsAreTheNameUpToItsFirstDot() {
    #expect(FontLibrary.fileStem("/usr/share/fonts/NotoSans-Regular.ttf") == "NotoSans-Regular")
    #expect(FontLibrary.fileStem("fonts/a.b.ttc") == "a")
    #expect(FontLibrary.fileStem("/x/.hidden.ttf") == "hidden")
    #expect(FontLibrary.fileStem("plain") == "plain")
    #expect(FontLibrary.fileStem("/trailing/") == "trailing")
  }

  /// A font stack's fallback chain is kept once made: asked again, past the number kept (which
  /// starts the memo again), and from a library that made none, it is the same.
  @Test func keptChainsAreTheChainsMadeAfresh() {
    let library = FontLibrary()
    let stacks = (0..<(FontLibrary.keptChains + 10)).map { index in
      ["Font \(index)", index % 2 == 0 ? "Noto Sans Bold" : "Noto Sans Regular"]
    }
    let first = stacks.map(library.chain(for:))
    #expect(first == stacks.map(library.makeChain))
    #expect(stacks.map(library.chain(for:)) == first)
    #expect(stacks.map(FontLibrary().chain(for:)) == first)
  }
}
