// The vector first pass (stage 1) of NotifJSON's reader: which bytes of a buffer are quotes,
// strings, structural characters and line ends, 64 bytes to a block, each a bitmask (bit k is
// byte k of the block). The way of Langdale and Lemire, "Parsing gigabytes of JSON per second"
// (2019): odd backslash runs, a quote mask, and a prefix XOR for the bytes inside strings.
// C for the instructions Swift does not reach (the byte masks, movemask), not a dependency.
// Users: notif-parse, notif-group, notif-summarize, notif-expire, notif-mark, notif-responses,
// notif-show, notif-digest.
// Each through NotifJSON, the one module that imports it.
#ifndef CNOTIF_SIMD_H
#define CNOTIF_SIMD_H

#include <stddef.h>
#include <stdint.h>

/// The vector units: the scalar reference, SSE2 (the x86-64 floor) or NEON, AVX2.
enum {
  NOTIF_SIMD_SCALAR = 0,
  NOTIF_SIMD_SSE2 = 1,
  NOTIF_SIMD_AVX2 = 2,
  NOTIF_SIMD_NEON = 3,
};

/// The widest unit this CPU has (and its operating system saves the registers of).
int notif_simd_best_level(void);

/// Whether `level` can run here (the scalar reference always can).
int notif_simd_level_supported(int level);

/// The bytes a string scan must stop at, for each of `blocks` 64-byte blocks from `p`: a
/// quote, a backslash, a control character (below 0x20) or a byte of a non-ASCII character.
/// Every other byte is plain ASCII text a string holds as it is, so a run of them is checked
/// 64 bytes at a time; the scan validates the stops one by one.
void notif_simd_stops(const uint8_t *p, size_t blocks, uint64_t *out, int level);

/// What a block holds, beyond its stops.
typedef struct {
  uint64_t stops;        // as notif_simd_stops
  uint64_t quotes;       // quotes that are not escaped
  uint64_t in_string;    // bytes of strings: the opening quote to before the closing one
  uint64_t structurals;  // { } [ ] : , outside strings
  uint64_t whitespace;   // space, tab, CR and LF outside strings
  uint64_t line_ends;    // every 0x0A, inside a string or not
} notif_simd_block;

/// Where the blocks before left off.
typedef struct {
  uint64_t in_string;  // all ones if the last block ended inside a string, else 0
  uint64_t escaped;    // 1 if the first byte of the next block is escaped, else 0
} notif_simd_carry;

/// Classifies `blocks` 64-byte blocks from `p` into `out`, continuing from `carry` (zeroed
/// at the start of a text) and leaving it for the blocks that follow.
void notif_simd_classify(
    const uint8_t *p, size_t blocks, notif_simd_block *out, notif_simd_carry *carry, int level);

/// The first offset `i`, `from <= i < count - 1`, where the bytes `p[i]` and `p[i + 1]` are
/// `a0 a1` or `b0 b1`; `count` when there is none. The vector units compare 32 (AVX2) or 16
/// (SSE2, NEON) offsets at a time and take the first match from the mask; the last offsets,
/// fewer than a vector's, go byte by byte, as the scalar reference goes through all of them.
/// notif-expire's collapse survey finds `collapse_id` keys by their `ps`, and escapes by `\u`.
size_t notif_simd_find_pair(
    const uint8_t *p, size_t count, size_t from, uint8_t a0, uint8_t a1, uint8_t b0, uint8_t b1,
    int level);

#if defined(__SSE2__)
#include <emmintrin.h>

/// The stops among the 16 bytes from `p` (as `notif_simd_stops` finds them), bit k for byte k.
/// SSE2, which every x86-64 CPU has, and inline: the parser's string scan calls it for the
/// strings of short texts, where a call would cost more than the scan.
static inline uint32_t notif_simd_stops16(const uint8_t *p) {
  __m128i bytes = _mm_loadu_si128((const __m128i *)p);
  __m128i quotes = _mm_cmpeq_epi8(bytes, _mm_set1_epi8('"'));
  __m128i backslashes = _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\'));
  // A signed comparison: below 0x20 is a control character, below 0 a byte of a non-ASCII
  // character.
  __m128i low = _mm_cmplt_epi8(bytes, _mm_set1_epi8(0x20));
  return (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quotes, backslashes), low));
}
#endif

#endif
