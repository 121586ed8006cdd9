// GIF decode (the first frame) and encode (one palette image) through giflib.
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera_codecs.h"

typedef struct {
  const uint8_t *data;
  size_t size;
  size_t offset;
} gif_memory_reader;

static int read_gif_memory(GifFileType *gif, GifByteType *out, int count) {
  gif_memory_reader *reader = (gif_memory_reader *)gif->UserData;
  size_t available = reader->size - reader->offset;
  size_t taken = (size_t)count < available ? (size_t)count : available;
  memcpy(out, reader->data + reader->offset, taken);
  reader->offset += taken;
  return (int)taken;
}

static int fail(GifFileType *gif, tessera_decoded_image *out, uint8_t *pixels, uint8_t *line,
                const char *what) {
  if (!out->error[0]) {
    int code = gif ? gif->Error : 0;
    const char *reason = code ? GifErrorString(code) : NULL;
    snprintf(out->error, TESSERA_CODEC_ERROR_SIZE, "%s%s%s", what, reason ? ": " : "",
             reason ? reason : "");
  }
  free(pixels);
  free(line);
  if (gif) DGifCloseFile(gif, NULL);
  return 1;
}

int tessera_gif_decode(const uint8_t *data, size_t size, uint64_t max_pixels,
                       tessera_decoded_image *out) {
  memset(out, 0, sizeof(*out));
  gif_memory_reader reader = {data, size, 0};
  int error = 0;
  GifFileType *gif = DGifOpen(&reader, read_gif_memory, &error);
  if (!gif) {
    snprintf(out->error, TESSERA_CODEC_ERROR_SIZE, "not a GIF: %s", GifErrorString(error));
    return 1;
  }
  uint32_t width = (uint32_t)(gif->SWidth > 0 ? gif->SWidth : 0);
  uint32_t height = (uint32_t)(gif->SHeight > 0 ? gif->SHeight : 0);
  if (width == 0 || height == 0) {
    snprintf(out->error, TESSERA_CODEC_ERROR_SIZE, "GIF screen of %ux%u pixels is empty",
             width, height);
    return fail(gif, out, NULL, NULL, "");
  }
  if ((uint64_t)width * height > max_pixels) {
    snprintf(out->error, TESSERA_CODEC_ERROR_SIZE,
             "GIF of %ux%u pixels is larger than the limit of %llu pixels", width, height,
             (unsigned long long)max_pixels);
    DGifCloseFile(gif, NULL);
    out->width = width;
    out->height = height;
    return TESSERA_CODEC_TOO_LARGE;
  }
  // The canvas starts transparent; the first frame is drawn at its place on it.
  uint8_t *pixels = (uint8_t *)calloc((size_t)width * height, 4);
  if (!pixels) return fail(gif, out, NULL, NULL, "out of memory for the decoded GIF");
  int transparent = NO_TRANSPARENT_COLOR;
  for (;;) {
    GifRecordType record;
    if (DGifGetRecordType(gif, &record) == GIF_ERROR) {
      return fail(gif, out, pixels, NULL, "cannot read a GIF record");
    }
    if (record == TERMINATE_RECORD_TYPE) {
      return fail(gif, out, pixels, NULL, "GIF holds no image");
    }
    if (record == EXTENSION_RECORD_TYPE) {
      int code = 0;
      GifByteType *block = NULL;
      if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) {
        return fail(gif, out, pixels, NULL, "cannot read a GIF extension");
      }
      if (code == GRAPHICS_EXT_FUNC_CODE && block && block[0] >= 4) {
        GraphicsControlBlock control;
        if (DGifExtensionToGCB(block[0], block + 1, &control) == GIF_OK) {
          transparent = control.TransparentColor;
        }
      }
      while (block) {
        if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) {
          return fail(gif, out, pixels, NULL, "cannot read a GIF extension");
        }
      }
      continue;
    }
    if (record != IMAGE_DESC_RECORD_TYPE) continue;
    if (DGifGetImageDesc(gif) == GIF_ERROR) {
      return fail(gif, out, pixels, NULL, "cannot read the GIF image descriptor");
    }
    GifImageDesc *frame = &gif->Image;
    ColorMapObject *map = frame->ColorMap ? frame->ColorMap : gif->SColorMap;
    if (!map) return fail(gif, out, pixels, NULL, "GIF image has no colour table");
    if (frame->Width <= 0 || frame->Height <= 0 ||
        (uint64_t)frame->Width * (uint64_t)frame->Height > max_pixels) {
      snprintf(out->error, TESSERA_CODEC_ERROR_SIZE, "GIF frame of %dx%d pixels is invalid",
               frame->Width, frame->Height);
      return fail(gif, out, pixels, NULL, "");
    }
    uint8_t *line = (uint8_t *)malloc((size_t)frame->Width);
    if (!line) return fail(gif, out, pixels, NULL, "out of memory for a GIF row");
    // Interlaced images store rows in four passes.
    static const int starts[] = {0, 4, 2, 1}, steps[] = {8, 8, 4, 2};
    int passes = frame->Interlace ? 4 : 1;
    for (int pass = 0; pass < passes; pass++) {
      int start = frame->Interlace ? starts[pass] : 0, step = frame->Interlace ? steps[pass] : 1;
      for (int row = start; row < frame->Height; row += step) {
        if (DGifGetLine(gif, line, frame->Width) == GIF_ERROR) {
          return fail(gif, out, pixels, line, "cannot read GIF pixels");
        }
        long y = (long)frame->Top + row;
        if (y < 0 || y >= (long)height) continue;
        for (int column = 0; column < frame->Width; column++) {
          long x = (long)frame->Left + column;
          int index = line[column];
          if (x < 0 || x >= (long)width || index == transparent || index >= map->ColorCount) {
            continue;
          }
          uint8_t *pixel = pixels + ((size_t)y * width + (size_t)x) * 4;
          pixel[0] = map->Colors[index].Red;
          pixel[1] = map->Colors[index].Green;
          pixel[2] = map->Colors[index].Blue;
          pixel[3] = 255;
        }
      }
    }
    free(line);
    DGifCloseFile(gif, NULL);
    out->pixels = pixels;
    out->width = width;
    out->height = height;
    return 0;
  }
}

static int write_gif_memory(GifFileType *gif, const GifByteType *data, int count) {
  tessera_encoded_bytes *sink = (tessera_encoded_bytes *)gif->UserData;
  if (sink->size + (size_t)count > sink->capacity) {
    size_t capacity = sink->capacity ? sink->capacity : 65536;
    while (capacity < sink->size + (size_t)count) capacity *= 2;
    uint8_t *grown = (uint8_t *)realloc(sink->bytes, capacity);
    if (!grown) return 0;
    sink->bytes = grown;
    sink->capacity = capacity;
  }
  memcpy(sink->bytes + sink->size, data, (size_t)count);
  sink->size += (size_t)count;
  return count;
}

int tessera_gif_encode(const uint8_t *indices, uint32_t width, uint32_t height,
                       const uint8_t *palette_rgb, int palette_size, int transparent_index,
                       tessera_encoded_bytes *out) {
  memset(out, 0, sizeof(*out));
  if (palette_size < 1 || palette_size > 256 || width == 0 || height == 0 || width > 65535 ||
      height > 65535) {
    snprintf(out->error, TESSERA_CODEC_ERROR_SIZE,
             "GIF of %ux%u pixels with %d colours (expected 1 to 65535 pixels a side, 1 to "
             "256 colours)",
             width, height, palette_size);
    return 1;
  }
  // giflib's colour tables hold a power of two entries; the rest are black.
  int bits = 1;
  while ((1 << bits) < palette_size) bits++;
  GifColorType colours[256];
  memset(colours, 0, sizeof(colours));
  for (int i = 0; i < palette_size; i++) {
    colours[i].Red = palette_rgb[i * 3];
    colours[i].Green = palette_rgb[i * 3 + 1];
    colours[i].Blue = palette_rgb[i * 3 + 2];
  }
  int error = 0;
  GifFileType *gif = EGifOpen(out, write_gif_memory, &error);
  if (!gif) {
    snprintf(out->error, TESSERA_CODEC_ERROR_SIZE, "EGifOpen failed: %s", GifErrorString(error));
    return 1;
  }
  ColorMapObject *map = GifMakeMapObject(1 << bits, colours);
  int ok = map != NULL;
  EGifSetGifVersion(gif, true);
  ok = ok && EGifPutScreenDesc(gif, (int)width, (int)height, bits, 0, map) == GIF_OK;
  if (ok && transparent_index >= 0) {
    GraphicsControlBlock control = {.DisposalMode = DISPOSAL_UNSPECIFIED,
                                    .UserInputFlag = false,
                                    .DelayTime = 0,
                                    .TransparentColor = transparent_index};
    GifByteType block[4];
    size_t length = EGifGCBToExtension(&control, block);
    ok = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, (int)length, block) == GIF_OK;
  }
  ok = ok && EGifPutImageDesc(gif, 0, 0, (int)width, (int)height, false, NULL) == GIF_OK;
  for (uint32_t y = 0; ok && y < height; y++) {
    ok = EGifPutLine(gif, (GifPixelType *)(indices + (size_t)y * width), (int)width) == GIF_OK;
  }
  int code = gif->Error;
  if (EGifCloseFile(gif, &error) == GIF_ERROR && ok) {
    ok = 0;
    code = error;
  }
  GifFreeMapObject(map);
  if (!ok) {
    snprintf(out->error, TESSERA_CODEC_ERROR_SIZE, "GIF encoding failed: %s",
             code ? GifErrorString(code) : "out of memory");
    free(out->bytes);
    out->bytes = NULL;
    out->size = 0;
    return 1;
  }
  return 0;
}
