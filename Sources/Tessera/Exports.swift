// The types of the lower modules that Tessera's public API speaks in, re-exported one by one so
// that `import Tessera` alone is enough to use it and brings nothing else: the renderer's,
// the GL device's and the style engine's internals stay inside the package. A test
// (`PublicAPITests`) lists these lines with every public declaration of this module.

import TesseraNumbers
@_exported import struct TesseraData.ResourceAccess
@_exported import class TesseraData.TileLoader
@_exported import enum TesseraGL.EGLError
@_exported import class TesseraGL.GLDevice
@_exported import enum TesseraGL.GPUSelection
@_exported import struct TesseraGeo.Camera
@_exported import struct TesseraGeo.CameraAnimation
@_exported import struct TesseraGeo.CameraLimits
@_exported import enum TesseraGeo.CameraUpdate
@_exported import struct TesseraGeo.Coordinate
@_exported import struct TesseraGeo.CoordinateBounds
@_exported import struct TesseraGeo.EdgeInsets
@_exported import enum TesseraGeo.GeoError
@_exported import struct TesseraGeo.MapState
@_exported import struct TesseraGeo.Projection
@_exported import struct TesseraGeo.ScreenPoint
@_exported import struct TesseraGeo.TileID
@_exported import struct TesseraGeo.Viewport
@_exported import enum TesseraImage.AlphaRepresentation
@_exported import struct TesseraImage.Color
@_exported import enum TesseraImage.PNGCodec
@_exported import struct TesseraImage.RGBAImage
@_exported import enum TesseraJSON.JSONValue
@_exported import struct TesseraRender.FrameLimitError
@_exported import struct TesseraRender.FrameLimits
@_exported import class TesseraRender.RenderCancellation
@_exported import struct TesseraRender.RenderCancelledError
@_exported import struct TesseraStyle.FeatureStates
@_exported import struct TesseraStyle.Style
@_exported import enum TesseraStyle.StyleValue
@_exported import struct TesseraText.FontFace
