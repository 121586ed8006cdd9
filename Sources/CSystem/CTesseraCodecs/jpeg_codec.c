// JPEG decode and encode through libjpeg-turbo (its RGBA extensions avoid a conversion pass).
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
// jpeglib.h needs stdio.h's FILE first.
#include <jpeglib.h>

#include "tessera_codecs.h"

typedef struct {
  struct jpeg_error_mgr manager;
  jmp_buf jump;
  char *error;
} jpeg_error_state;

static void on_jpeg_error(j_common_ptr info) {
  jpeg_error_state *state = (jpeg_error_state *)info->err;
  char message[JMSG_LENGTH_MAX];
  (*info->err->format_message)(info, message);
  snprintf(state->error, TESSERA_CODEC_ERROR_SIZE, "%s", message);
  longjmp(state->jump, 1);
}

// Warnings (level -1) mark corrupt or truncated data that libjpeg would otherwise paper over
// (a truncated file decodes with grey padding): treat them as errors. Trace messages are ignored.
static void on_jpeg_message(j_common_ptr info, int level) {
  if (level < 0) on_jpeg_error(info);
}

int tessera_jpeg_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                        tessera_decoded_image *out) {
  memset(out, 0, sizeof(*out));
  if (size < 3 || data[0] != 0xFF || data[1] != 0xD8) {
    snprintf(out->error, TESSERA_CODEC_ERROR_SIZE, "not a JPEG (bad signature)");
    return 1;
  }
  struct jpeg_decompress_struct info;
  jpeg_error_state state = {.error = out->error};
  info.err = jpeg_std_error(&state.manager);
  state.manager.error_exit = on_jpeg_error;
  state.manager.emit_message = on_jpeg_message;
  uint8_t *volatile pixels = NULL;
  if (setjmp(state.jump)) {
    free(pixels);
    jpeg_destroy_decompress(&info);
    return 1;
  }
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, data, (unsigned long)size);
  jpeg_read_header(&info, TRUE);
  if ((uint64_t)info.image_width * info.image_height > max_pixels) {
    snprintf(out->error, TESSERA_CODEC_ERROR_SIZE,
             "JPEG of %ux%u pixels is larger than the limit of %llu pixels",
             (unsigned)info.image_width, (unsigned)info.image_height,
             (unsigned long long)max_pixels);
    out->width = info.image_width;
    out->height = info.image_height;
    jpeg_destroy_decompress(&info);
    return TESSERA_CODEC_TOO_LARGE;
  }
  info.out_color_space = JCS_EXT_RGBA;
  jpeg_start_decompress(&info);
  size_t stride = (size_t)info.output_width * 4;
  pixels = (uint8_t *)malloc(stride * info.output_height);
  if (!pixels) {
    snprintf(out->error, TESSERA_CODEC_ERROR_SIZE, "out of memory for the decoded JPEG");
    longjmp(state.jump, 1);
  }
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = pixels + stride * info.output_scanline;
    if (jpeg_read_scanlines(&info, &row, 1) != 1) {
      snprintf(out->error, TESSERA_CODEC_ERROR_SIZE, "truncated JPEG data");
      longjmp(state.jump, 1);
    }
  }
  out->width = info.output_width;
  out->height = info.output_height;
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);
  out->pixels = pixels;
  return 0;
}

int tessera_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int quality,
                        int progressive, tessera_encoded_bytes *out) {
  memset(out, 0, sizeof(*out));
  struct jpeg_compress_struct info;
  jpeg_error_state state = {.error = out->error};
  info.err = jpeg_std_error(&state.manager);
  state.manager.error_exit = on_jpeg_error;
  state.manager.emit_message = on_jpeg_message;
  unsigned char *volatile buffer = NULL;
  unsigned long buffer_size = 0;
  if (setjmp(state.jump)) {
    jpeg_destroy_compress(&info);
    free(buffer);
    return 1;
  }
  jpeg_create_compress(&info);
  jpeg_mem_dest(&info, (unsigned char **)&buffer, &buffer_size);
  info.image_width = width;
  info.image_height = height;
  info.input_components = 4;
  info.in_color_space = JCS_EXT_RGBA;
  jpeg_set_defaults(&info);
  jpeg_set_quality(&info, quality, TRUE);
  if (progressive) jpeg_simple_progression(&info);
  jpeg_start_compress(&info, TRUE);
  while (info.next_scanline < info.image_height) {
    JSAMPROW row = (JSAMPROW)(rgba + (size_t)info.next_scanline * width * 4);
    jpeg_write_scanlines(&info, &row, 1);
  }
  jpeg_finish_compress(&info);
  jpeg_destroy_compress(&info);
  out->bytes = buffer;
  out->size = buffer_size;
  out->capacity = buffer_size;
  return 0;
}
