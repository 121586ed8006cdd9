import Foundation

/// Small encoded images of kinds Tessera's encoders never write (palette, grey, 16-bit,
/// progressive JPEG), made once with Pillow and kept here as base64.
enum Fixtures {
  static func bytes(_ base64: String) -> [UInt8] {
    Array(Data(base64Encoded: base64)!)
  }

  /// 4×3 palette PNG, colours red/green/blue by (x + y) % 3, blue (index 2) transparent (tRNS).
  static let palettePNG = bytes(
    "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADAgMAAADJmkZVAAAACVBMVEX/AAAA/wAAAP8tSs2KAAAAA3RSTlP//wDXyg1BAAAADklEQVR42mOQYPJkUgUAAYoAi7TPHsUAAAAASUVORK5CYII="
  )
  /// 3×2 8-bit grey PNG: 0, 128, 255 / 64, 32, 16.
  static let grayPNG = bytes(
    "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAAAAAC4HznGAAAAEElEQVR4nGNgaPjP4KAgAAAJEwHwG/m3fgAAAABJRU5ErkJggg==")
  /// 2×2 grey+alpha PNG: (10,255) (20,128) / (30,0) (40,64).
  static let grayAlphaPNG = bytes(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAQAAADYv8WvAAAAEklEQVR4nGPk+s/VyCLCyOUAAAxtAfkRMeisAAAAAElFTkSuQmCC")
  /// 2×1 16-bit grey PNG: 0, 65535.
  static let gray16PNG = bytes(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABEAAAAACB2fwVAAAADUlEQVR4nGNgYPj/HwADAgH/5ncLrgAAAABJRU5ErkJggg==")
  /// 5×4 RGB PNG, every pixel (200, 100, 50).
  static let rgbPNG = bytes(
    "iVBORw0KGgoAAAANSUhEUgAAAAUAAAAECAIAAADJUWIXAAAAFElEQVR4nGM8kWLEgASYGFABIT4AVpoBZqLaBtAAAAAASUVORK5CYII=")
  /// 16×16 progressive JPEG, every pixel about (200, 30, 60).
  static let progressiveJPEG = bytes(
    "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/2wBDAQICAgICAgUDAwUKBwYHCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgr/wgARCAAQABADASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAf/xAAVAQEBAAAAAAAAAAAAAAAAAAAFCP/aAAwDAQACEAMQAAABk4Dqb//EABQQAQAAAAAAAAAAAAAAAAAAACD/2gAIAQEAAQUCH//EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQMBAT8Bf//EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQIBAT8Bf//EABQQAQAAAAAAAAAAAAAAAAAAACD/2gAIAQEABj8CH//EABQQAQAAAAAAAAAAAAAAAAAAACD/2gAIAQEAAT8hH//aAAwDAQACAAMAAAAQA//EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQMBAT8Qf//EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQIBAT8Qf//EABQQAQAAAAAAAAAAAAAAAAAAACD/2gAIAQEAAT8QH//Z"
  )
  /// 8×8 greyscale JPEG, every pixel about 100.
  static let grayJPEG = bytes(
    "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDAsKDAkKCgr/wAALCAAIAAgBAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEBAAA/APD6/9k="
  )

  /// A gradient test image with varied alpha, `width` × `height`.
  static func gradient(width: Int = 37, height: Int = 23) -> [UInt8] {
    var pixels: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        pixels += [
          UInt8(x * 255 / max(width - 1, 1)), UInt8(y * 255 / max(height - 1, 1)), UInt8((x * y) % 256),
          UInt8(255 - (x + y) % 200),
        ]
      }
    }
    return pixels
  }
}
