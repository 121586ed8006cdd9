import Foundation
import TesseraNumbers

/// Settings Tessera gives Mesa before EGL starts.
public enum MesaEnvironment {
  /// llvmpipe's SIMD width, bits, pinned so that software rendering runs the same code on
  /// every CPU. llvmpipe otherwise sizes its code to the CPU (256 bits with AVX; 128 without
  /// and on ARM), and Mesa 22.3's llvmpipe at 128 bits corrupts its heap (glibc aborts,
  /// "double free or corruption") on Tessera's label and map-marker draws: 57 of Tessera's 86
  /// goldens abort at 128 bits; the other 29 give the same bytes at both widths. At 256 bits
  /// on a CPU without AVX, LLVM splits the vectors: slower, same code path.
  public static let vectorWidth = 256

  /// Sets `LP_NATIVE_VECTOR_WIDTH` to ``vectorWidth`` unless the environment already sets it.
  /// Mesa reads it once per process, when llvmpipe first starts; called before every EGL
  /// display is opened.
  public static func pinVectorWidth() {
    setenv("LP_NATIVE_VECTOR_WIDTH", String(vectorWidth), 0)
  }
}
