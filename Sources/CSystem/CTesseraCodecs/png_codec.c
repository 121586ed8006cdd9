// PNG decode and encode through libpng's full API (for control over filters and zlib settings).
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "tessera_codecs.h"

typedef struct {
  const uint8_t *data;
  size_t size;
  size_t offset;
} png_memory_reader;

typedef struct {
  jmp_buf jump;
  char *error;
} png_error_state;

static void on_png_error(png_structp png, png_const_charp message) {
  png_error_state *state = (png_error_state *)png_get_error_ptr(png);
  snprintf(state->error, TESSERA_CODEC_ERROR_SIZE, "%s", message);
  longjmp(state->jump, 1);
}

static void on_png_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

static void read_from_memory(png_structp png, png_bytep out, png_size_t count) {
  png_memory_reader *reader = (png_memory_reader *)png_get_io_ptr(png);
  if (count > reader->size - reader->offset) {
    png_error(png, "truncated PNG data (the file ends early)");
  }
  memcpy(out, reader->data + reader->offset, count);
  reader->offset += count;
}

int tessera_png_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                       tessera_decoded_image *out) {
  memset(out, 0, sizeof(*out));
  if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
    snprintf(out->error, TESSERA_CODEC_ERROR_SIZE, "not a PNG (bad signature)");
    return 1;
  }
  png_error_state state = {.error = out->error};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, on_png_error,
                                           on_png_warning);
  if (!png) {
    snprintf(out->error, TESSERA_CODEC_ERROR_SIZE, "png_create_read_struct failed");
    return 1;
  }
  png_infop info = png_create_info_struct(png);
  // Volatile: these change between setjmp and a possible longjmp.
  uint8_t *volatile pixels = NULL;
  png_bytep *volatile rows = NULL;
  if (!info || setjmp(state.jump)) {
    free(pixels);
    free(rows);
    png_destroy_read_struct(&png, info ? &info : NULL, NULL);
    if (!out->error[0]) snprintf(out->error, TESSERA_CODEC_ERROR_SIZE, "PNG decoding failed");
    return 1;
  }
  png_memory_reader reader = {data, size, 0};
  png_set_read_fn(png, &reader, read_from_memory);
  png_set_user_limits(png, 1u << 20, 1u << 20);
  png_set_chunk_malloc_max(png, 64u << 20);
  png_read_info(png, info);

  png_uint_32 width = png_get_image_width(png, info);
  png_uint_32 height = png_get_image_height(png, info);
  if ((uint64_t)width * (uint64_t)height > max_pixels) {
    snprintf(out->error, TESSERA_CODEC_ERROR_SIZE,
             "PNG of %ux%u pixels is larger than the limit of %llu pixels", (unsigned)width,
             (unsigned)height, (unsigned long long)max_pixels);
    png_destroy_read_struct(&png, &info, NULL);
    out->width = width;
    out->height = height;
    return TESSERA_CODEC_TOO_LARGE;
  }
  int color_type = png_get_color_type(png, info);
  int bit_depth = png_get_bit_depth(png, info);
  if (bit_depth == 16) png_set_strip_16(png);
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
  if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
    png_set_gray_to_rgb(png);
  }
  png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != (size_t)width * 4) {
    png_error(png, "unexpected row size after conversion to RGBA");
  }
  pixels = (uint8_t *)malloc((size_t)width * height * 4);
  rows = (png_bytep *)malloc(sizeof(png_bytep) * height);
  if (!pixels || !rows) png_error(png, "out of memory for the decoded image");
  for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (size_t)y * width * 4;
  png_read_image(png, rows);
  png_read_end(png, NULL);
  png_destroy_read_struct(&png, &info, NULL);
  free(rows);
  out->pixels = pixels;
  out->width = width;
  out->height = height;
  return 0;
}

static void write_to_memory(png_structp png, png_bytep data, png_size_t count) {
  tessera_encoded_bytes *sink = (tessera_encoded_bytes *)png_get_io_ptr(png);
  if (sink->size + count > sink->capacity) {
    size_t capacity = sink->capacity ? sink->capacity : 65536;
    while (capacity < sink->size + count) capacity *= 2;
    uint8_t *grown = (uint8_t *)realloc(sink->bytes, capacity);
    if (!grown) png_error(png, "out of memory for the encoded PNG");
    sink->bytes = grown;
    sink->capacity = capacity;
  }
  memcpy(sink->bytes + sink->size, data, count);
  sink->size += count;
}

static void flush_memory(png_structp png) { (void)png; }

int tessera_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height,
                       tessera_png_settings settings, tessera_encoded_bytes *out) {
  memset(out, 0, sizeof(*out));
  png_error_state state = {.error = out->error};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, on_png_error,
                                            on_png_warning);
  if (!png) {
    snprintf(out->error, TESSERA_CODEC_ERROR_SIZE, "png_create_write_struct failed");
    return 1;
  }
  png_infop info = png_create_info_struct(png);
  png_bytep *volatile rows = NULL;
  if (!info || setjmp(state.jump)) {
    free(rows);
    free(out->bytes);
    out->bytes = NULL;
    out->size = 0;
    png_destroy_write_struct(&png, info ? &info : NULL);
    if (!out->error[0]) snprintf(out->error, TESSERA_CODEC_ERROR_SIZE, "PNG encoding failed");
    return 1;
  }
  png_set_write_fn(png, out, write_to_memory, flush_memory);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, settings.compression_level);
  png_set_compression_strategy(png, settings.strategy);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, settings.filters);
  png_write_info(png, info);
  rows = (png_bytep *)malloc(sizeof(png_bytep) * height);
  if (!rows) png_error(png, "out of memory for row pointers");
  for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)(rgba + (size_t)y * width * 4);
  png_write_image(png, rows);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  free(rows);
  return 0;
}

void tessera_codec_free(void *pointer) { free(pointer); }

int tessera_png_encode_indexed(const uint8_t *indices, uint32_t width, uint32_t height,
                               const uint8_t *palette_rgba, int palette_size,
                               tessera_png_settings settings, tessera_encoded_bytes *out) {
  memset(out, 0, sizeof(*out));
  if (palette_size < 1 || palette_size > 256) {
    snprintf(out->error, TESSERA_CODEC_ERROR_SIZE, "palette of %d colours (expected 1 to 256)",
             palette_size);
    return 1;
  }
  png_error_state state = {.error = out->error};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, on_png_error,
                                            on_png_warning);
  if (!png) {
    snprintf(out->error, TESSERA_CODEC_ERROR_SIZE, "png_create_write_struct failed");
    return 1;
  }
  png_infop info = png_create_info_struct(png);
  png_bytep *volatile rows = NULL;
  if (!info || setjmp(state.jump)) {
    free(rows);
    free(out->bytes);
    out->bytes = NULL;
    out->size = 0;
    png_destroy_write_struct(&png, info ? &info : NULL);
    if (!out->error[0]) snprintf(out->error, TESSERA_CODEC_ERROR_SIZE, "PNG encoding failed");
    return 1;
  }
  png_set_write_fn(png, out, write_to_memory, flush_memory);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_color colours[256];
  png_byte alphas[256];
  int last_translucent = -1;
  for (int i = 0; i < palette_size; i++) {
    colours[i].red = palette_rgba[i * 4];
    colours[i].green = palette_rgba[i * 4 + 1];
    colours[i].blue = palette_rgba[i * 4 + 2];
    alphas[i] = palette_rgba[i * 4 + 3];
    if (alphas[i] != 255) last_translucent = i;
  }
  png_set_PLTE(png, info, colours, palette_size);
  // tRNS holds alphas up to the last entry that is not opaque; the rest are opaque.
  if (last_translucent >= 0) png_set_tRNS(png, info, alphas, last_translucent + 1, NULL);
  png_set_compression_level(png, settings.compression_level);
  png_set_compression_strategy(png, settings.strategy);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, settings.filters);
  png_write_info(png, info);
  rows = (png_bytep *)malloc(sizeof(png_bytep) * height);
  if (!rows) png_error(png, "out of memory for row pointers");
  for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)(indices + (size_t)y * width);
  png_write_image(png, rows);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  free(rows);
  return 0;
}
