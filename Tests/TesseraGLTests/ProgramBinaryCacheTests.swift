import CGLES3
import Foundation
import TesseraImage
import TesseraShaders
import Testing

@testable import TesseraGL

/// Programs kept on disk between processes: an entry is used only when it is whole and its key
/// is the one asked for, the folder only when it is this user's own, and a program linked from a
/// stored binary draws what a compiled one draws.
@Suite struct ProgramBinaryCacheTests {
  /// A new folder path (absent) under the test's temporary folder; removed by `body`'s end.
  static func withFolder(_ body: (String) throws -> Void) throws {
    let base = FileManager.default.temporaryDirectory.path + "/programs-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: base) }
    try body(base + "/cache")
  }

  static let entry = ProgramBinaryEntry(
    key: ProgramBinaryCache.key(driver: "Mesa\nllvmpipe", vertex: "void main() {}", fragment: "// ü"),
    format: 0x8740, binary: Array(0..<200).map { UInt8($0 % 251) })

  @Test func anEntryReadsBackAsWritten() {
    #expect(ProgramBinaryEntry(decoding: Self.entry.encoded(), key: Self.entry.key) == Self.entry)
  }

  /// Every shorter file, every file with a byte more, and every flipped byte of the header and
  /// key is refused (a flipped byte of the binary is the driver's to refuse).
  @Test func aDamagedOrForeignEntryIsRefused() {
    let bytes = Self.entry.encoded()
    for length in 0..<bytes.count {
      #expect(ProgramBinaryEntry(decoding: Array(bytes.prefix(length)), key: Self.entry.key) == nil, "\(length)")
    }
    #expect(ProgramBinaryEntry(decoding: bytes + [0], key: Self.entry.key) == nil)
    let binaryStart = bytes.count - Self.entry.binary.count
    for position in 0..<binaryStart where !(binaryStart - 8..<binaryStart - 4).contains(position) {
      var flipped = bytes
      flipped[position] ^= 0x01
      #expect(ProgramBinaryEntry(decoding: flipped, key: Self.entry.key) == nil, "byte \(position)")
    }
    #expect(ProgramBinaryEntry(decoding: bytes, key: Self.entry.key + " ") == nil)
    #expect(ProgramBinaryEntry(decoding: bytes, key: String(Self.entry.key.dropLast())) == nil)
    let empty = ProgramBinaryEntry(key: "k", format: 1, binary: [])
    #expect(ProgramBinaryEntry(decoding: empty.encoded(), key: "k") == nil)
  }

  @Test func aFolderIsMadePrivateAndEntriesGoInWhole() throws {
    try Self.withFolder { path in
      let cache = try #require(ProgramBinaryCache(path: path))
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      #expect((attributes[.posixPermissions] as? Int) == 0o700)
      #expect(cache.entry(for: Self.entry.key) == nil)
      cache.store(Self.entry)
      #expect(cache.entry(for: Self.entry.key) == Self.entry)
      #expect(cache.entry(for: Self.entry.key + "x") == nil)
      let files = try FileManager.default.contentsOfDirectory(atPath: path)
      #expect(files == [ProgramBinaryCache.fileName(for: Self.entry.key)], "no temporary file is left")
      #expect(cache.counts == .init(stored: 1))
    }
  }

  @Test func aFolderOthersMayWriteToOrALinkIsNotUsed() throws {
    try Self.withFolder { path in
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
      chmod(path, 0o777)
      #expect(ProgramBinaryCache(path: path) == nil)
      chmod(path, 0o775)
      #expect(ProgramBinaryCache(path: path) == nil)
      chmod(path, 0o755)
      #expect(ProgramBinaryCache(path: path) != nil, "others may read a folder of this user's")
      let link = path + "-link"
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
      #expect(ProgramBinaryCache(path: link) == nil)
      try FileManager.default.removeItem(atPath: link)
      #expect(ProgramBinaryCache(path: path + "/absent/below") == nil)
    }
  }

  @Test func linksAndOversizedFilesAreNotRead() throws {
    try Self.withFolder { path in
      let cache = try #require(ProgramBinaryCache(path: path))
      let name = path + "/" + ProgramBinaryCache.fileName(for: Self.entry.key)
      let elsewhere = path + "-elsewhere"
      try Data(Self.entry.encoded()).write(to: URL(fileURLWithPath: elsewhere))
      defer { try? FileManager.default.removeItem(atPath: elsewhere) }
      try FileManager.default.createSymbolicLink(atPath: name, withDestinationPath: elsewhere)
      #expect(cache.entry(for: Self.entry.key) == nil)
      try FileManager.default.removeItem(atPath: name)
      let large = ProgramBinaryEntry(
        key: Self.entry.key, format: 1, binary: [UInt8](repeating: 7, count: ProgramBinaryCache.largestEntry))
      cache.store(large)
      #expect(cache.counts.stored == 0)
      try Data(large.encoded()).write(to: URL(fileURLWithPath: name))
      #expect(cache.entry(for: Self.entry.key) == nil)
    }
  }

  /// Sets the modification time of `name` in `folder` to `seconds` before now.
  static func age(_ folder: String, _ name: String, seconds: Int) {
    var times = [timespec](repeating: timespec(tv_sec: time(nil) - seconds, tv_nsec: 0), count: 2)
    #expect(utimensat(AT_FDCWD, folder + "/" + name, &times, 0) == 0)
  }

  /// At capacity a new entry replaces the one used longest ago (loading renews an entry), an
  /// entry of a key already stored is replaced whatever the count, and temporary files a
  /// process left behind are removed once old.
  @Test func itKeepsItsCapacityByDroppingTheEntryUsedLongestAgo() throws {
    try Self.withFolder { path in
      let cache = try #require(ProgramBinaryCache(path: path, capacity: 2))
      func entry(_ key: String, _ byte: UInt8 = 1) -> ProgramBinaryEntry {
        ProgramBinaryEntry(key: key, format: 1, binary: [byte])
      }
      cache.store(entry("k0"))
      cache.store(entry("k1"))
      Self.age(path, ProgramBinaryCache.fileName(for: "k0"), seconds: 100)
      Self.age(path, ProgramBinaryCache.fileName(for: "k1"), seconds: 50)
      #expect(cache.entry(for: "k0") == entry("k0"))
      let abandoned = ".\(ProgramBinaryCache.fileName(for: "k9")).1.1"
      let fresh = ".\(ProgramBinaryCache.fileName(for: "k8")).1.1"
      for name in [abandoned, fresh] {
        #expect(FileManager.default.createFile(atPath: path + "/" + name, contents: Data([1])))
      }
      Self.age(path, abandoned, seconds: ProgramBinaryCache.abandonedAfter + 60)
      cache.store(entry("k2"))
      #expect(cache.entry(for: "k1") == nil, "k1 was used longest ago")
      #expect(cache.entry(for: "k0") == entry("k0"))
      #expect(cache.entry(for: "k2") == entry("k2"))
      cache.store(entry("k2", 7))
      #expect(cache.entry(for: "k2") == entry("k2", 7))
      #expect(cache.entry(for: "k0") == entry("k0"))
      #expect(cache.counts.stored == 4)
      let files = Set(try FileManager.default.contentsOfDirectory(atPath: path))
      #expect(files == [ProgramBinaryCache.fileName(for: "k0"), ProgramBinaryCache.fileName(for: "k2"), fresh])
    }
  }

  /// Threads storing at once keep the count (at most one over per thread racing for the last
  /// place).
  @Test func threadsStoringAtOnceKeepTheCapacity() throws {
    try Self.withFolder { path in
      let cache = try #require(ProgramBinaryCache(path: path, capacity: 40))
      DispatchQueue.concurrentPerform(iterations: 4) { thread in
        for index in 0..<40 { cache.store(ProgramBinaryEntry(key: "t\(thread)-\(index)", format: 1, binary: [1])) }
      }
      let count = try FileManager.default.contentsOfDirectory(atPath: path).count
      #expect(count >= 40 && count <= 44, "\(count) entries")
    }
  }

  /// Draws `diagonal` with the solid program on a new device using `cache`.
  static func drawSolid(cache: ProgramBinaryCache?) throws -> RGBAImage {
    let device = try GLDevice(gpu: .surfaceless)
    device.programCache = cache
    let target = try device.makeRenderTarget(RenderTargetDescriptor(width: 64, height: 48))
    let quad = try SolidQuad(device)
    device.beginPass(target, action: PassAction(clearColor: .lightGray))
    try quad.draw(diagonal, rgba: (0.5, 0.1, 0.1, 0.75))
    device.endPass()
    return try device.readPixels(target)
  }

  @Test func aStoredProgramIsLinkedFromItsBinaryAndDrawsTheSame() throws {
    try Self.withFolder { path in
      let cache = try #require(ProgramBinaryCache(path: path))
      let compiled = try Self.drawSolid(cache: nil)
      #expect(!compiled.isUniform)
      #expect(try Self.drawSolid(cache: cache) == compiled)
      #expect(cache.counts == .init(stored: 1))
      #expect(try Self.drawSolid(cache: cache) == compiled)
      #expect(cache.counts == .init(loaded: 1, stored: 1))
    }
  }

  /// A binary the driver refuses (here one byte of it changed, as another build of the driver
  /// or a damaged disk would give) means compiling; the entry is then written again.
  @Test func aBinaryTheDriverRefusesIsCompiledAndReplaced() throws {
    try Self.withFolder { path in
      let cache = try #require(ProgramBinaryCache(path: path))
      let compiled = try Self.drawSolid(cache: cache)
      let file = path + "/" + (try FileManager.default.contentsOfDirectory(atPath: path)[0])
      var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
      bytes[bytes.count - 9] ^= 0x5A
      try Data(bytes).write(to: URL(fileURLWithPath: file))
      #expect(try Self.drawSolid(cache: cache) == compiled)
      #expect(cache.counts == .init(stored: 2, refused: 1))
      #expect(try Self.drawSolid(cache: cache) == compiled)
      #expect(cache.counts == .init(loaded: 1, stored: 2, refused: 1))
    }
  }

  /// Building a program through the cache raises no GL error and clears none: an entry in a
  /// format the driver does not read is refused before GL sees it, and an error an earlier call
  /// left is still there for the checks after every path (stored, refused, loaded).
  @Test func theCacheLeavesGLErrorsAsTheyWere() throws {
    try Self.withFolder { path in
      let cache = try #require(ProgramBinaryCache(path: path))
      var key = ""
      func build(pendingError: Bool) throws -> GLenum {
        let device = try GLDevice(gpu: .surfaceless)
        device.programCache = cache
        #expect(!device.programBinaryFormats.contains(0xDEAD))
        let source = try #require(ShaderLibrary.source(of: "solid", defines: [:]))
        key = ProgramBinaryCache.key(
          driver: device.info.programBinaryDriver, vertex: source.vertex, fragment: source.fragment)
        if pendingError { glEnable(0xDEAD) }
        _ = try device.program(named: "solid")
        return glGetError()
      }
      #expect(try build(pendingError: true) == GLenum(GL_INVALID_ENUM))
      #expect(cache.counts == .init(stored: 1))
      let file = path + "/" + (try FileManager.default.contentsOfDirectory(atPath: path)[0])
      let refusals: [(foreign: Bool, pending: Bool)] = [(true, false), (true, true), (false, false), (false, true)]
      for (round, refusal) in refusals.enumerated() {
        let stored = try #require(
          ProgramBinaryEntry(decoding: [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))), key: key))
        var binary = stored.binary
        if !refusal.foreign { binary[binary.count - 9] ^= 0x5A }
        let format = refusal.foreign ? 0xDEAD : stored.format
        try Data(ProgramBinaryEntry(key: stored.key, format: format, binary: binary).encoded())
          .write(to: URL(fileURLWithPath: file))
        #expect(try build(pendingError: refusal.pending) == GLenum(refusal.pending ? GL_INVALID_ENUM : GL_NO_ERROR))
        #expect(cache.counts == .init(stored: 2 + round, refused: 1 + round))
      }
      #expect(try build(pendingError: true) == GLenum(GL_INVALID_ENUM))
      #expect(try build(pendingError: false) == GLenum(GL_NO_ERROR))
      #expect(cache.counts == .init(loaded: 2, stored: 5, refused: 4))
    }
  }

  /// Every embedded program linked from its binary has the attributes and uniforms it has when
  /// compiled.
  @Test func everyProgramFromItsBinaryHasTheCompiledOnesInterface() throws {
    try Self.withFolder { path in
      let cache = try #require(ProgramBinaryCache(path: path))
      let compiled = try GLDevice(gpu: .surfaceless)
      compiled.programCache = cache
      try compiled.compilePrograms()
      let loaded = try GLDevice(gpu: .surfaceless)
      loaded.programCache = cache
      try loaded.compilePrograms()
      #expect(cache.counts.loaded == ShaderLibrary.names.count)
      #expect(cache.counts.stored == ShaderLibrary.names.count)
      for name in ShaderLibrary.names {
        let before = try compiled.program(named: name)
        let after = try loaded.program(named: name)
        #expect(before.attributes == after.attributes, "\(name)")
        #expect(before.uniforms == after.uniforms, "\(name)")
      }
    }
  }

  @Test func theDevicesDriverOffersBinariesAndTheSharedCacheFollowsMesas() throws {
    let device = try GLDevice(gpu: .surfaceless)
    if let folder = MesaEnvironment.shaderCacheFolderInUse {
      #expect(device.programCache?.path == folder + "/programs")
    } else {
      #expect(device.programCache == nil)
    }
  }
}
