// PNG, JPEG and GIF coding through libpng, libjpeg-turbo and giflib.
//
// Both libraries report errors by longjmp, which Swift cannot catch; these functions hold the
// setjmp points and turn every failure into a return code plus a message in `error`.
// Pixels are 8-bit RGBA, rows top to bottom, tightly packed (stride = width * 4).
#pragma once
#include <stddef.h>
#include <stdint.h>

#define TESSERA_CODEC_ERROR_SIZE 256
/// Returned by the decoders when the image exceeds `max_pixels`; width and height are set.
#define TESSERA_CODEC_TOO_LARGE 2

/// A decoded image: `pixels` is malloc'd (free with tessera_codec_free), straight alpha.
typedef struct {
  uint8_t *pixels;
  uint32_t width;
  uint32_t height;
  char error[TESSERA_CODEC_ERROR_SIZE];
} tessera_decoded_image;

/// Encoded bytes: `bytes` is malloc'd (free with tessera_codec_free).
typedef struct {
  uint8_t *bytes;
  size_t size;
  size_t capacity;
  char error[TESSERA_CODEC_ERROR_SIZE];
} tessera_encoded_bytes;

/// PNG writer settings. `filters` is a mask of libpng's PNG_FILTER_* bits; `strategy` is a zlib
/// strategy (Z_DEFAULT_STRATEGY, Z_FILTERED, Z_RLE, ...).
typedef struct {
  int compression_level;
  int filters;
  int strategy;
} tessera_png_settings;

/// Decodes any PNG (palette, grey, 16-bit, interlaced, tRNS) to 8-bit straight RGBA.
/// Refuses images with more than `max_pixels` pixels before allocating (returns
/// TESSERA_CODEC_TOO_LARGE). Returns 0 on success, 1 on any other failure.
int tessera_png_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                       tessera_decoded_image *out);

/// Encodes 8-bit straight RGBA as a PNG (colour type RGBA, 8 bits). Returns 0 on success.
int tessera_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height,
                       tessera_png_settings settings, tessera_encoded_bytes *out);

/// Encodes palette indices (one byte a pixel) as a PNG of colour type palette, 8 bits; the
/// palette is `palette_size` (1-256) RGBA entries, its alphas written as a tRNS chunk when any
/// is below 255. Returns 0 on success.
int tessera_png_encode_indexed(const uint8_t *indices, uint32_t width, uint32_t height,
                               const uint8_t *palette_rgba, int palette_size,
                               tessera_png_settings settings, tessera_encoded_bytes *out);

/// Decodes the first frame of a GIF, drawn at its place on a transparent canvas of the
/// screen's size, to straight RGBA (the frame's transparent index is alpha 0). Refuses screens
/// with more than `max_pixels` pixels (returns TESSERA_CODEC_TOO_LARGE). Returns 0 on success.
int tessera_gif_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                       tessera_decoded_image *out);

/// Encodes palette indices as a GIF89a of one image; the palette is `palette_size` (1-256)
/// RGB entries and `transparent_index` is the index drawn transparent, or -1 for none.
/// Returns 0 on success.
int tessera_gif_encode(const uint8_t *indices, uint32_t width, uint32_t height,
                       const uint8_t *palette_rgb, int palette_size, int transparent_index,
                       tessera_encoded_bytes *out);

/// Decodes a baseline or progressive JPEG (grey, RGB, CMYK converted by libjpeg) to RGBA with
/// alpha 255. Refuses images with more than `max_pixels` pixels (returns TESSERA_CODEC_TOO_LARGE).
/// Returns 0 on success, 1 on any other failure.
int tessera_jpeg_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                        tessera_decoded_image *out);

/// Encodes RGBA as a JPEG of the given quality (1-100), baseline or (`progressive` non-zero)
/// progressive; the alpha channel is ignored, so the caller composites transparent pixels
/// first. Returns 0 on success.
int tessera_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int quality,
                        int progressive, tessera_encoded_bytes *out);

/// One band of a PNG's rows, filtered and deflated (see tessera_png_deflate_band): `bytes` is
/// malloc'd (free with tessera_codec_free).
typedef struct {
  uint8_t *bytes;
  size_t size;
  /// The filtered rows' size in bytes (one filter byte and `width * 4` bytes a row).
  size_t raw_size;
  /// The Adler-32 checksum of the filtered rows.
  uint32_t adler;
} tessera_png_band;

/// Filters rows `first_row ..< first_row + rows` of an RGBA image `width` pixels wide with the
/// `Up` filter (against row `first_row - 1` when there is one), converting premultiplied colour
/// to straight when `premultiplied` is set, and deflates them as raw deflate blocks: the stream
/// ends when `final` is set, else it ends byte-aligned so that bands join into one stream.
/// The bytes depend only on the pixels and the arguments. Returns 0 on success.
int tessera_png_deflate_band(const uint8_t *pixels, uint32_t width, uint32_t first_row, uint32_t rows,
                             int premultiplied, int final, tessera_png_band *out);

/// The most bytes the band compressor writes for `size` filtered bytes.
size_t tessera_deflate_bound(size_t size);

/// Frees memory returned by the functions above.
void tessera_codec_free(void *pointer);
