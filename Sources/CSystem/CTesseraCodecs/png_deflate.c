// The fast PNG encoder's compressor: one band of rows filtered with `Up` and deflated by a
// compressor made for rendered maps (RFC 1951 raw deflate, dynamic Huffman blocks).
//
// Matches are looked for at two distances only: 1 (runs of one byte: rows equal to the row
// above filter to runs of zeros) and 4 (one RGBA pixel: flat colour beside an edge repeats its
// filtered pixel). Each position takes the longer of the two or a literal, greedily. Blocks of
// at most BLOCK_SYMBOLS symbols get Huffman codes of their own, or are stored when that is
// smaller. Everything is integer arithmetic with every tie broken by symbol number, so the
// output depends on the input bytes alone, on any machine.
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "tessera_codecs.h"

enum {
  BLOCK_SYMBOLS = 1 << 15,
  LITLEN_CODES = 286,
  DIST_CODES = 30,
  CODELEN_CODES = 19,
  MAX_CODE_BITS = 15,
  MAX_CODELEN_BITS = 7,
  MIN_MATCH = 3,
  MAX_MATCH = 258,
};

/// Marks a match among a block's symbols (distance code << 16 | length); literals are bytes.
static const uint32_t MATCH_FLAG = 1u << 31;

// Length codes 257...285: the first length of each and its extra bits (RFC 1951, 3.2.5).
static const uint16_t length_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                         31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
// The order code length code lengths are sent in.
static const uint8_t codelen_order[CODELEN_CODES] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5,
                                                     11, 4, 12, 3, 13, 2, 14, 1, 15};

/// Fills `code_of` with the length code (0...28, to add to 257) of every match length 3...258.
static void fill_length_codes(uint8_t code_of[MAX_MATCH + 1]) {
  for (int code = 0; code < 29; code++) {
    int last = code == 28 ? MAX_MATCH : length_base[code] + (1 << length_extra[code]) - 1;
    if (code == 27) last = 257;  // 258 has a code of its own.
    for (int length = length_base[code]; length <= last; length++) code_of[length] = (uint8_t)code;
  }
}

// ---- Bits out, least significant first -------------------------------------------------

typedef struct {
  uint8_t *bytes;
  size_t size;
  size_t capacity;
  uint64_t bits;
  int count;
  int overflow;
} bit_writer;

static inline __attribute__((always_inline)) void put_bits(bit_writer *w, uint32_t value, int count) {
  w->bits |= (uint64_t)value << w->count;
  w->count += count;
  if (w->count >= 32) {
    if (w->size + 4 > w->capacity) {
      w->overflow = 1;
      w->size = 0;
    }
    uint32_t word = (uint32_t)w->bits;
    w->bytes[w->size] = (uint8_t)word;
    w->bytes[w->size + 1] = (uint8_t)(word >> 8);
    w->bytes[w->size + 2] = (uint8_t)(word >> 16);
    w->bytes[w->size + 3] = (uint8_t)(word >> 24);
    w->size += 4;
    w->bits >>= 32;
    w->count -= 32;
  }
}

/// Pads with zero bits to a whole byte and writes out every pending byte.
static void align_to_byte(bit_writer *w) {
  while (w->count > 0) {
    if (w->size + 1 > w->capacity) {
      w->overflow = 1;
      w->size = 0;
    }
    w->bytes[w->size++] = (uint8_t)w->bits;
    w->bits >>= 8;
    w->count = w->count > 8 ? w->count - 8 : 0;
  }
  w->bits = 0;
}

static void put_bytes(bit_writer *w, const uint8_t *bytes, size_t count) {
  if (w->size + count > w->capacity) {
    w->overflow = 1;
    return;
  }
  memcpy(w->bytes + w->size, bytes, count);
  w->size += count;
}

// ---- Huffman codes ---------------------------------------------------------------------

static int compare_keys(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/// Code lengths (at most `max_bits`) for `count` symbols of frequencies `freq`: a Huffman code
/// over the used symbols, deepened where it is too deep. At least two symbols must be used.
static void code_lengths(const uint32_t *freq, int count, int max_bits, uint8_t *lengths) {
  // Used symbols by frequency, then symbol number: the keys are unique, so any sort gives the
  // same order.
  uint64_t keys[LITLEN_CODES];
  int order[LITLEN_CODES];
  int used = 0;
  for (int symbol = 0; symbol < count; symbol++) {
    lengths[symbol] = 0;
    if (freq[symbol] != 0) keys[used++] = ((uint64_t)freq[symbol] << 9) | (uint64_t)symbol;
  }
  qsort(keys, (size_t)used, sizeof keys[0], compare_keys);
  for (int leaf = 0; leaf < used; leaf++) order[leaf] = (int)(keys[leaf] & 0x1FF);
  // Two queues: leaves in order, and the internal nodes, made in non-decreasing weight.
  uint64_t weight[2 * LITLEN_CODES];
  int parent[2 * LITLEN_CODES];
  for (int leaf = 0; leaf < used; leaf++) weight[leaf] = freq[order[leaf]];
  int next_leaf = 0, next_node = used, nodes = used;
  for (int made = 0; made < used - 1; made++) {
    int pick[2];
    for (int k = 0; k < 2; k++) {
      if (next_leaf < used && (next_node >= nodes || weight[next_leaf] <= weight[next_node])) {
        pick[k] = next_leaf++;
      } else {
        pick[k] = next_node++;
      }
    }
    weight[nodes] = weight[pick[0]] + weight[pick[1]];
    parent[pick[0]] = nodes;
    parent[pick[1]] = nodes;
    nodes++;
  }
  // Depths: the root is the last node made; every node's parent comes after it.
  int depth[2 * LITLEN_CODES];
  depth[nodes - 1] = 0;
  for (int node = nodes - 2; node >= 0; node--) depth[node] = depth[parent[node]] + 1;
  // Leaves per length, those deeper than allowed moved up to `max_bits`; then, while the code
  // is over-full, a leaf at `max_bits` goes below the deepest shorter leaf (that leaf and it
  // become a pair one level down): each step takes 2^-max_bits off the Kraft sum.
  uint32_t per_length[64] = {0};
  for (int leaf = 0; leaf < used; leaf++) {
    int bits = depth[leaf] > max_bits ? max_bits : depth[leaf];
    per_length[bits]++;
  }
  uint64_t kraft = 0;
  for (int bits = 1; bits <= max_bits; bits++) kraft += (uint64_t)per_length[bits] << (max_bits - bits);
  while (kraft > (1ull << max_bits)) {
    per_length[max_bits]--;
    for (int bits = max_bits - 1; bits > 0; bits--) {
      if (per_length[bits] > 0) {
        per_length[bits]--;
        per_length[bits + 1] += 2;
        break;
      }
    }
    kraft--;
  }
  // The most frequent symbols get the shortest codes.
  int leaf = used - 1;
  for (int bits = 1; bits <= max_bits; bits++) {
    for (uint32_t k = 0; k < per_length[bits]; k++) lengths[order[leaf--]] = (uint8_t)bits;
  }
}

/// Canonical codes for `lengths`, bit-reversed for writing least significant bit first.
static void canonical_codes(const uint8_t *lengths, int count, uint16_t *codes) {
  uint16_t per_length[MAX_CODE_BITS + 1] = {0};
  for (int symbol = 0; symbol < count; symbol++) per_length[lengths[symbol]]++;
  per_length[0] = 0;
  uint16_t next[MAX_CODE_BITS + 2];
  uint32_t code = 0;
  for (int bits = 1; bits <= MAX_CODE_BITS; bits++) {
    code = (code + per_length[bits - 1]) << 1;
    next[bits] = (uint16_t)code;
  }
  for (int symbol = 0; symbol < count; symbol++) {
    int bits = lengths[symbol];
    if (bits == 0) {
      codes[symbol] = 0;
      continue;
    }
    uint32_t value = next[bits]++;
    uint32_t reversed = 0;
    for (int k = 0; k < bits; k++) reversed |= ((value >> k) & 1u) << (bits - 1 - k);
    codes[symbol] = (uint16_t)reversed;
  }
}

/// Makes sure at least two of `count` symbols are used (a code of one symbol is incomplete).
static void use_two(uint32_t *freq, int count) {
  int used = 0;
  for (int symbol = 0; symbol < count; symbol++) used += freq[symbol] != 0;
  for (int symbol = 0; used < 2 && symbol < count; symbol++) {
    if (freq[symbol] == 0) {
      freq[symbol] = 1;
      used++;
    }
  }
}

// ---- Blocks ----------------------------------------------------------------------------

typedef struct {
  const uint8_t *input;
  size_t block_start;  // first input byte of the pending block
  uint32_t symbols[BLOCK_SYMBOLS];
  int symbol_count;
  uint32_t litlen_freq[LITLEN_CODES];
  uint32_t dist_freq[DIST_CODES];
  uint8_t length_code_of[MAX_MATCH + 1];
} block_state;

/// Writes `length` input bytes as stored blocks (at most 65535 bytes each).
static void write_stored(bit_writer *w, const uint8_t *bytes, size_t length, int final) {
  do {
    size_t part = length > 65535 ? 65535 : length;
    int last = final && part == length;
    put_bits(w, (uint32_t)last, 1);
    put_bits(w, 0, 2);
    align_to_byte(w);
    uint8_t header[4] = {(uint8_t)part, (uint8_t)(part >> 8), (uint8_t)~part, (uint8_t)(~part >> 8)};
    put_bytes(w, header, 4);
    put_bytes(w, bytes, part);
    bytes += part;
    length -= part;
  } while (length > 0);
}

/// Writes the pending symbols (input bytes `block_start ..< end`) as one block, dynamic or
/// stored, whichever is smaller.
static void flush_block(block_state *s, bit_writer *w, size_t end, int final) {
  uint32_t litlen_freq[LITLEN_CODES], dist_freq[DIST_CODES];
  memcpy(litlen_freq, s->litlen_freq, sizeof litlen_freq);
  memcpy(dist_freq, s->dist_freq, sizeof dist_freq);
  litlen_freq[256] = 1;
  use_two(litlen_freq, LITLEN_CODES);
  use_two(dist_freq, DIST_CODES);
  uint8_t lengths[LITLEN_CODES + DIST_CODES];
  code_lengths(litlen_freq, LITLEN_CODES, MAX_CODE_BITS, lengths);
  code_lengths(dist_freq, DIST_CODES, MAX_CODE_BITS, lengths + LITLEN_CODES);
  int hlit = LITLEN_CODES, hdist = DIST_CODES;
  while (hlit > 257 && lengths[hlit - 1] == 0) hlit--;
  while (hdist > 1 && lengths[LITLEN_CODES + hdist - 1] == 0) hdist--;
  // The lengths sent, litlen then distance as one sequence, run-length coded: 16 repeats the
  // previous length 3-6 times, 17 and 18 give 3-10 and 11-138 zeros.
  uint8_t sequence[LITLEN_CODES + DIST_CODES];
  memcpy(sequence, lengths, (size_t)hlit);
  memcpy(sequence + hlit, lengths + LITLEN_CODES, (size_t)hdist);
  int total = hlit + hdist;
  uint8_t rle_symbol[LITLEN_CODES + DIST_CODES];
  uint8_t rle_extra[LITLEN_CODES + DIST_CODES];
  int rle_count = 0;
  uint32_t codelen_freq[CODELEN_CODES] = {0};
  for (int at = 0; at < total;) {
    uint8_t value = sequence[at];
    int run = 1;
    while (at + run < total && sequence[at + run] == value) run++;
    at += run;
    if (value == 0) {
      while (run >= 11) {
        int part = run > 138 ? 138 : run;
        rle_symbol[rle_count] = 18, rle_extra[rle_count++] = (uint8_t)(part - 11);
        run -= part;
      }
      if (run >= 3) {
        rle_symbol[rle_count] = 17, rle_extra[rle_count++] = (uint8_t)(run - 3);
        run = 0;
      }
    } else {
      rle_symbol[rle_count] = value, rle_extra[rle_count++] = 0;
      run--;
      while (run >= 3) {
        int part = run > 6 ? 6 : run;
        rle_symbol[rle_count] = 16, rle_extra[rle_count++] = (uint8_t)(part - 3);
        run -= part;
      }
    }
    while (run-- > 0) rle_symbol[rle_count] = value, rle_extra[rle_count++] = 0;
  }
  for (int k = 0; k < rle_count; k++) codelen_freq[rle_symbol[k]]++;
  use_two(codelen_freq, CODELEN_CODES);
  uint8_t codelen_lengths[CODELEN_CODES];
  code_lengths(codelen_freq, CODELEN_CODES, MAX_CODELEN_BITS, codelen_lengths);
  int hclen = CODELEN_CODES;
  while (hclen > 4 && codelen_lengths[codelen_order[hclen - 1]] == 0) hclen--;

  // Sizes in bits: the dynamic block against stored blocks of the same bytes.
  static const uint8_t codelen_extra_bits[CODELEN_CODES] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                            0, 0, 0, 0, 0, 0, 2, 3, 7};
  uint64_t dynamic_bits = 3 + 14 + 3 * (uint64_t)hclen;
  for (int k = 0; k < rle_count; k++) {
    dynamic_bits += codelen_lengths[rle_symbol[k]] + codelen_extra_bits[rle_symbol[k]];
  }
  for (int symbol = 0; symbol < LITLEN_CODES; symbol++) {
    uint64_t extra = symbol >= 257 ? length_extra[symbol - 257] : 0;
    dynamic_bits += (uint64_t)s->litlen_freq[symbol] * (lengths[symbol] + extra);
  }
  dynamic_bits += lengths[256];
  for (int symbol = 0; symbol < DIST_CODES; symbol++) {
    dynamic_bits += (uint64_t)s->dist_freq[symbol] * lengths[LITLEN_CODES + symbol];  // codes 0, 3: no extra
  }
  size_t raw = end - s->block_start;
  uint64_t stored_bits = ((uint64_t)raw + 5 * (raw / 65535 + 1)) * 8 + 8;

  if (stored_bits < dynamic_bits) {
    write_stored(w, s->input + s->block_start, raw, final);
  } else {
    uint16_t litlen_codes[LITLEN_CODES], dist_codes[DIST_CODES], codelen_codes[CODELEN_CODES];
    canonical_codes(lengths, LITLEN_CODES, litlen_codes);
    canonical_codes(lengths + LITLEN_CODES, DIST_CODES, dist_codes);
    canonical_codes(codelen_lengths, CODELEN_CODES, codelen_codes);
    put_bits(w, (uint32_t)final, 1);
    put_bits(w, 2, 2);
    put_bits(w, (uint32_t)(hlit - 257), 5);
    put_bits(w, (uint32_t)(hdist - 1), 5);
    put_bits(w, (uint32_t)(hclen - 4), 4);
    for (int k = 0; k < hclen; k++) put_bits(w, codelen_lengths[codelen_order[k]], 3);
    for (int k = 0; k < rle_count; k++) {
      uint8_t symbol = rle_symbol[k];
      put_bits(w, codelen_codes[symbol], codelen_lengths[symbol]);
      if (codelen_extra_bits[symbol]) put_bits(w, rle_extra[k], codelen_extra_bits[symbol]);
    }
    for (int k = 0; k < s->symbol_count; k++) {
      uint32_t symbol = s->symbols[k];
      if (!(symbol & MATCH_FLAG)) {
        put_bits(w, litlen_codes[symbol], lengths[symbol]);
        continue;
      }
      int length = (int)(symbol & 0xFFFF);
      int dist_code = (int)((symbol >> 16) & 0xFF);
      int code = s->length_code_of[length];
      put_bits(w, litlen_codes[257 + code], lengths[257 + code]);
      if (length_extra[code]) put_bits(w, (uint32_t)(length - length_base[code]), length_extra[code]);
      put_bits(w, dist_codes[dist_code], lengths[LITLEN_CODES + dist_code]);
    }
    put_bits(w, litlen_codes[256], lengths[256]);
  }
  s->block_start = end;
  s->symbol_count = 0;
  memset(s->litlen_freq, 0, sizeof s->litlen_freq);
  memset(s->dist_freq, 0, sizeof s->dist_freq);
}

static inline uint64_t load64(const uint8_t *p) {
  uint64_t value;
  memcpy(&value, p, 8);
  return value;
}

static inline uint32_t load32(const uint8_t *p) {
  uint32_t value;
  memcpy(&value, p, 4);
  return value;
}

/// How many bytes from `at` (at most `limit`) equal those `distance` bytes before.
static inline int match_length(const uint8_t *input, size_t at, size_t distance, int limit) {
  int length = 0;
  while (length + 8 <= limit) {
    uint64_t difference = load64(input + at + length) ^ load64(input + at + length - distance);
    if (difference) return length + (__builtin_ctzll(difference) >> 3);
    length += 8;
  }
  while (length < limit && input[at + length] == input[at + length - distance]) length++;
  return length;
}

/// Deflates `input` (raw deflate): byte-aligned at the end (an empty stored block after the
/// last block) unless `final`, which ends the stream. Returns the bytes written to `output`
/// (`capacity` bytes; tessera_deflate_bound is enough), or 0 when it is too small.
static size_t deflate_rendered(const uint8_t *input, size_t size, int final, uint8_t *output, size_t capacity) {
  block_state *s = calloc(1, sizeof(block_state));
  if (!s) return 0;
  fill_length_codes(s->length_code_of);
  s->input = input;
  bit_writer w = {output, 0, capacity, 0, 0, 0};
  size_t at = 0;
  while (at < size) {
    int limit = size - at > MAX_MATCH ? MAX_MATCH : (int)(size - at);
    int best = 0, best_code = 0;
    if (at >= 4 && limit >= 4) {
      // Cheap tests first: the next three bytes repeat the byte before, or the pixel before.
      uint32_t previous = load32(input + at - 1);
      if (previous == (previous & 0xFFu) * 0x01010101u) best = match_length(input, at, 1, limit);
      if (((load32(input + at) ^ load32(input + at - 4)) & 0xFFFFFFu) == 0) {
        int four = match_length(input, at, 4, limit);
        if (four > best) best = four, best_code = 3;
      }
    } else if (at >= 1 && limit >= MIN_MATCH) {
      best = match_length(input, at, 1, limit);
    }
    if (best >= MIN_MATCH) {
      s->symbols[s->symbol_count++] = MATCH_FLAG | ((uint32_t)best_code << 16) | (uint32_t)best;
      s->litlen_freq[257 + s->length_code_of[best]]++;
      s->dist_freq[best_code]++;
      at += (size_t)best;
    } else {
      s->symbols[s->symbol_count++] = input[at];
      s->litlen_freq[input[at]]++;
      at++;
    }
    if (s->symbol_count == BLOCK_SYMBOLS) flush_block(s, &w, at, final && at == size);
  }
  if (s->symbol_count > 0 || size == 0) flush_block(s, &w, at, final);
  if (!final) write_stored(&w, input, 0, 0);  // the sync point: an empty stored block
  align_to_byte(&w);
  free(s);
  return w.overflow ? 0 : w.size;
}

size_t tessera_deflate_bound(size_t size) {
  // Stored blocks at worst: 5 bytes per 65535 and per block, plus the writer's slack.
  return size + 5 * (size / 65535 + size / BLOCK_SYMBOLS + 2) + 64;
}

/// Copies one row of `count` bytes, converting premultiplied colour to straight (rounded to
/// nearest).
static void straight_row(const uint8_t *row, size_t count, int premultiplied, uint8_t *out) {
  if (!premultiplied) {
    memcpy(out, row, count);
    return;
  }
  for (size_t x = 0; x < count; x += 4) {
    uint32_t a = row[x + 3];
    out[x + 3] = (uint8_t)a;
    if (a == 255) {
      out[x] = row[x], out[x + 1] = row[x + 1], out[x + 2] = row[x + 2];
    } else if (a == 0) {
      out[x] = 0, out[x + 1] = 0, out[x + 2] = 0;
    } else {
      for (int c = 0; c < 3; c++) {
        uint32_t value = (row[x + c] * 255u + a / 2) / a;
        out[x + c] = (uint8_t)(value > 255 ? 255 : value);
      }
    }
  }
}

int tessera_png_deflate_band(const uint8_t *pixels, uint32_t width, uint32_t first_row, uint32_t rows,
                             int premultiplied, int final, tessera_png_band *out) {
  memset(out, 0, sizeof *out);
  size_t row_bytes = (size_t)width * 4;
  size_t raw_size = (size_t)rows * (row_bytes + 1);
  uint8_t *raw = malloc(raw_size + 8);  // 8: match_length reads whole words
  uint8_t *above = calloc(row_bytes ? row_bytes : 1, 1);
  uint8_t *current = malloc(row_bytes ? row_bytes : 1);
  size_t capacity = tessera_deflate_bound(raw_size);
  uint8_t *deflated = malloc(capacity);
  int status = 1;
  if (raw && above && current && deflated) {
    if (first_row > 0) straight_row(pixels + (size_t)(first_row - 1) * row_bytes, row_bytes, premultiplied, above);
    for (uint32_t row = 0; row < rows; row++) {
      straight_row(pixels + (size_t)(first_row + row) * row_bytes, row_bytes, premultiplied, current);
      uint8_t *line = raw + row * (row_bytes + 1);
      line[0] = 2;  // Up
      for (size_t x = 0; x < row_bytes; x++) line[1 + x] = (uint8_t)(current[x] - above[x]);
      uint8_t *swap = above;
      above = current;
      current = swap;
    }
    memset(raw + raw_size, 0, 8);
    size_t produced = deflate_rendered(raw, raw_size, final, deflated, capacity);
    if (produced > 0) {
      out->bytes = deflated;
      out->size = produced;
      out->raw_size = raw_size;
      out->adler = (uint32_t)adler32(1, raw, (uInt)raw_size);
      deflated = NULL;
      status = 0;
    }
  }
  free(raw);
  free(above);
  free(current);
  free(deflated);
  return status;
}
