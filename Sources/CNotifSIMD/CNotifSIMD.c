// The vector first pass of NotifJSON's reader (see include/CNotifSIMD.h). Each unit computes
// a block's raw byte masks; the escapes, quotes and strings are then worked out on the 64-bit
// masks, the same for every unit. The scalar reference goes byte by byte instead, so that the
// differential fuzz target (fuzz/JSONVectorFuzz.swift) checks the bit tricks against the
// plain reading.
#include "CNotifSIMD.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

// The raw masks of one block, before strings are known.
typedef struct {
  uint64_t stops, quote, backslash, op, space, line;
} raw_masks;

// MARK: - Choosing a unit

int notif_simd_level_supported(int level) {
  switch (level) {
  case NOTIF_SIMD_SCALAR:
    return 1;
#if defined(__x86_64__)
  case NOTIF_SIMD_SSE2:
    return 1;
  case NOTIF_SIMD_AVX2: {
    // AVX2 (leaf 7, EBX bit 5), and the operating system saves the YMM registers (OSXSAVE,
    // then XCR0 bits 1 and 2): the cpuid header rather than __builtin_cpu_supports, which needs
    // a run-time library the static Swift executables may not link.
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE)) return 0;
    unsigned lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & bit_AVX2) != 0;
  }
#elif defined(__aarch64__)
  case NOTIF_SIMD_NEON:
    return 1;
#endif
  default:
    return 0;
  }
}

int notif_simd_best_level(void) {
#if defined(__x86_64__)
  return notif_simd_level_supported(NOTIF_SIMD_AVX2) ? NOTIF_SIMD_AVX2 : NOTIF_SIMD_SSE2;
#elif defined(__aarch64__)
  return NOTIF_SIMD_NEON;
#else
  return NOTIF_SIMD_SCALAR;
#endif
}

// MARK: - The scalar reference

static inline int is_stop(uint8_t b) { return b == '"' || b == '\\' || b < 0x20 || b >= 0x80; }

static uint64_t stops_scalar(const uint8_t *p) {
  uint64_t m = 0;
  for (int k = 0; k < 64; k++) m |= (uint64_t)is_stop(p[k]) << k;
  return m;
}

// Byte by byte, as a reader that knows nothing of masks: a backslash escapes the next byte
// (unless itself escaped), a quote not escaped opens or closes a string.
static void classify_scalar(const uint8_t *p, notif_simd_block *out, notif_simd_carry *carry) {
  notif_simd_block r = {0, 0, 0, 0, 0, 0};
  int escaped = carry->escaped != 0;
  int in_string = carry->in_string != 0;
  for (int k = 0; k < 64; k++) {
    uint8_t b = p[k];
    uint64_t bit = (uint64_t)1 << k;
    int was_escaped = escaped;
    escaped = b == '\\' && !was_escaped;
    if (is_stop(b)) r.stops |= bit;
    if (b == '\n') r.line_ends |= bit;
    if (b == '"' && !was_escaped) {
      r.quotes |= bit;
      in_string = !in_string;
    }
    if (in_string) {
      r.in_string |= bit;
    } else if (b == '{' || b == '}' || b == '[' || b == ']' || b == ':' || b == ',') {
      r.structurals |= bit;
    } else if (b == ' ' || b == '\t' || b == '\r' || b == '\n') {
      r.whitespace |= bit;
    }
  }
  carry->escaped = (uint64_t)escaped;
  carry->in_string = in_string ? ~(uint64_t)0 : 0;
  *out = r;
}

// MARK: - The bit logic every vector unit shares

// The bytes escaped by a backslash, given the block's backslashes: simdjson's branchless
// `find_escaped` (a run of backslashes escapes every second byte after its start; the add
// carries each run's parity to the byte after it).
static inline uint64_t find_escaped(uint64_t backslash, uint64_t *prev_escaped) {
  const uint64_t even_bits = 0x5555555555555555ULL;
  backslash &= ~*prev_escaped;
  uint64_t follows_escape = backslash << 1 | *prev_escaped;
  uint64_t odd_sequence_starts = backslash & ~even_bits & ~follows_escape;
  uint64_t sequences_starting_on_even_bits;
  *prev_escaped =
      __builtin_add_overflow(odd_sequence_starts, backslash, &sequences_starting_on_even_bits);
  uint64_t invert_mask = sequences_starting_on_even_bits << 1;
  return (even_bits ^ invert_mask) & follows_escape;
}

// Bit k becomes the XOR of bits 0...k: 1 from each opening quote up to its closing one. Shifts
// rather than a carry-less multiply, which would need PCLMUL (and its check) for six steps.
static inline uint64_t prefix_xor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

static inline void finish(raw_masks m, notif_simd_block *out, notif_simd_carry *carry) {
  uint64_t escaped = find_escaped(m.backslash, &carry->escaped);
  uint64_t quotes = m.quote & ~escaped;
  uint64_t in_string = prefix_xor(quotes) ^ carry->in_string;
  carry->in_string = (uint64_t)((int64_t)in_string >> 63);
  out->stops = m.stops;
  out->quotes = quotes;
  out->in_string = in_string;
  out->structurals = m.op & ~in_string;
  out->whitespace = m.space & ~in_string;
  out->line_ends = m.line;
}

// MARK: - SSE2 and AVX2

#if defined(__x86_64__)

// One vector's masks, shifted to `at`: written once for SSE2 and AVX2 in clang's vector
// extensions (a scalar operand stands for every lane), with each unit's movemask.
#define DEFINE_MASKS(NAME, VECTOR, MOVEMASK, ATTRIBUTES)                                      \
  ATTRIBUTES static inline void NAME(const uint8_t *p, int at, raw_masks *m, int full) {      \
    VECTOR v;                                                                                 \
    __builtin_memcpy(&v, p, sizeof v);                                                        \
    VECTOR quote = v == '"';                                                                  \
    VECTOR backslash = v == '\\';                                                             \
    /* Signed: below 0x20 is a control character or (negative) a byte of 0x80 or more. */    \
    m->stops |= (uint64_t)(uint32_t)MOVEMASK(quote | backslash | (v < 0x20)) << at;           \
    if (!full) return;                                                                        \
    m->quote |= (uint64_t)(uint32_t)MOVEMASK(quote) << at;                                    \
    m->backslash |= (uint64_t)(uint32_t)MOVEMASK(backslash) << at;                            \
    /* `{` and `[` (0x7B, 0x5B), `}` and `]` (0x7D, 0x5D) differ only in bit 0x20. */        \
    VECTOR folded = v | 0x20;                                                                 \
    VECTOR op = (folded == '{') | (folded == '}') | (v == ':') | (v == ',');                  \
    VECTOR line = v == '\n';                                                                  \
    VECTOR space = (v == ' ') | (v == '\t') | (v == '\r') | line;                              \
    m->op |= (uint64_t)(uint32_t)MOVEMASK(op) << at;                                          \
    m->space |= (uint64_t)(uint32_t)MOVEMASK(space) << at;                                    \
    m->line |= (uint64_t)(uint32_t)MOVEMASK(line) << at;                                      \
  }

typedef signed char bytes16 __attribute__((vector_size(16)));
typedef signed char bytes32 __attribute__((vector_size(32)));
#define MOVEMASK16(x) _mm_movemask_epi8((__m128i)(x))
#define MOVEMASK32(x) _mm256_movemask_epi8((__m256i)(x))
DEFINE_MASKS(masks_sse2, bytes16, MOVEMASK16, )
DEFINE_MASKS(masks_avx2, bytes32, MOVEMASK32, __attribute__((target("avx2"))))

static inline raw_masks block_sse2(const uint8_t *p, int full) {
  raw_masks m = {0, 0, 0, 0, 0, 0};
  masks_sse2(p, 0, &m, full);
  masks_sse2(p + 16, 16, &m, full);
  masks_sse2(p + 32, 32, &m, full);
  masks_sse2(p + 48, 48, &m, full);
  return m;
}

__attribute__((target("avx2"))) static inline raw_masks block_avx2(const uint8_t *p, int full) {
  raw_masks m = {0, 0, 0, 0, 0, 0};
  masks_avx2(p, 0, &m, full);
  masks_avx2(p + 32, 32, &m, full);
  return m;
}

__attribute__((target("avx2"))) static void stops_avx2(
    const uint8_t *p, size_t blocks, uint64_t *out) {
  for (size_t k = 0; k < blocks; k++) out[k] = block_avx2(p + 64 * k, 0).stops;
}

__attribute__((target("avx2"))) static void classify_avx2(
    const uint8_t *p, size_t blocks, notif_simd_block *out, notif_simd_carry *carry) {
  for (size_t k = 0; k < blocks; k++) finish(block_avx2(p + 64 * k, 1), out + k, carry);
}

#elif defined(__aarch64__)

// NEON has no movemask: each byte keeps its own bit of 1...128, and three pairwise adds fold
// 64 bytes into 8 bytes of bits, one per byte (simdjson's `to_bitmask`).
static inline uint64_t bits_neon(uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t d) {
  const uint8x16_t weight = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
  uint8x16_t s0 = vpaddq_u8(vandq_u8(a, weight), vandq_u8(b, weight));
  uint8x16_t s1 = vpaddq_u8(vandq_u8(c, weight), vandq_u8(d, weight));
  s0 = vpaddq_u8(s0, s1);
  s0 = vpaddq_u8(s0, s0);
  return vgetq_lane_u64(vreinterpretq_u64_u8(s0), 0);
}

static inline raw_masks block_neon(const uint8_t *p, int full) {
  uint8x16_t v[4] = {vld1q_u8(p), vld1q_u8(p + 16), vld1q_u8(p + 32), vld1q_u8(p + 48)};
  uint8x16_t quote[4], backslash[4], stops[4], op[4], space[4], line[4];
  for (int k = 0; k < 4; k++) {
    quote[k] = vceqq_u8(v[k], vdupq_n_u8('"'));
    backslash[k] = vceqq_u8(v[k], vdupq_n_u8('\\'));
    uint8x16_t odd = vorrq_u8(vcltq_u8(v[k], vdupq_n_u8(0x20)), vcgeq_u8(v[k], vdupq_n_u8(0x80)));
    stops[k] = vorrq_u8(vorrq_u8(quote[k], backslash[k]), odd);
    uint8x16_t folded = vorrq_u8(v[k], vdupq_n_u8(0x20));
    op[k] = vorrq_u8(
        vorrq_u8(vceqq_u8(folded, vdupq_n_u8('{')), vceqq_u8(folded, vdupq_n_u8('}'))),
        vorrq_u8(vceqq_u8(v[k], vdupq_n_u8(':')), vceqq_u8(v[k], vdupq_n_u8(','))));
    line[k] = vceqq_u8(v[k], vdupq_n_u8('\n'));
    space[k] = vorrq_u8(
        vorrq_u8(vceqq_u8(v[k], vdupq_n_u8(' ')), vceqq_u8(v[k], vdupq_n_u8('\t'))),
        vorrq_u8(vceqq_u8(v[k], vdupq_n_u8('\r')), line[k]));
  }
  raw_masks m = {0, 0, 0, 0, 0, 0};
  m.stops = bits_neon(stops[0], stops[1], stops[2], stops[3]);
  if (!full) return m;
  m.quote = bits_neon(quote[0], quote[1], quote[2], quote[3]);
  m.backslash = bits_neon(backslash[0], backslash[1], backslash[2], backslash[3]);
  m.op = bits_neon(op[0], op[1], op[2], op[3]);
  m.space = bits_neon(space[0], space[1], space[2], space[3]);
  m.line = bits_neon(line[0], line[1], line[2], line[3]);
  return m;
}

#endif

// MARK: - Finding a pair of bytes

static size_t find_pair_scalar(
    const uint8_t *p, size_t count, size_t i, uint8_t a0, uint8_t a1, uint8_t b0, uint8_t b1) {
  for (; i + 1 < count; i++) {
    if ((p[i] == a0 && p[i + 1] == a1) || (p[i] == b0 && p[i + 1] == b1)) return i;
  }
  return count;
}

#if defined(__x86_64__)

// The offsets from `i` at which a pair starts, bit k for offset i + k: the bytes at the offsets
// and the bytes after them, compared a vector at a time.
#define DEFINE_PAIRS(NAME, VECTOR, MOVEMASK, ATTRIBUTES)                                      \
  ATTRIBUTES static inline uint32_t NAME(                                                     \
      const uint8_t *p, size_t i, uint8_t a0, uint8_t a1, uint8_t b0, uint8_t b1) {          \
    VECTOR here, next;                                                                        \
    __builtin_memcpy(&here, p + i, sizeof here);                                              \
    __builtin_memcpy(&next, p + i + 1, sizeof next);                                          \
    VECTOR hits = ((here == (signed char)a0) & (next == (signed char)a1))                     \
        | ((here == (signed char)b0) & (next == (signed char)b1));                            \
    return (uint32_t)MOVEMASK(hits);                                                          \
  }

DEFINE_PAIRS(pairs_sse2, bytes16, MOVEMASK16, )
DEFINE_PAIRS(pairs_avx2, bytes32, MOVEMASK32, __attribute__((target("avx2"))))

// A step reads the bytes at its offsets and the one after the last: 17 (33) of them.
static size_t find_pair_sse2(
    const uint8_t *p, size_t count, size_t i, uint8_t a0, uint8_t a1, uint8_t b0, uint8_t b1) {
  for (; i + 17 <= count; i += 16) {
    uint32_t hits = pairs_sse2(p, i, a0, a1, b0, b1);
    if (hits) return i + (size_t)__builtin_ctz(hits);
  }
  return find_pair_scalar(p, count, i, a0, a1, b0, b1);
}

__attribute__((target("avx2"))) static size_t find_pair_avx2(
    const uint8_t *p, size_t count, size_t i, uint8_t a0, uint8_t a1, uint8_t b0, uint8_t b1) {
  for (; i + 33 <= count; i += 32) {
    uint32_t hits = pairs_avx2(p, i, a0, a1, b0, b1);
    if (hits) return i + (size_t)__builtin_ctz(hits);
  }
  return find_pair_sse2(p, count, i, a0, a1, b0, b1);
}

#elif defined(__aarch64__)

// Narrowing each 16-bit lane by 4 leaves 4 bits a byte: the first match is the lowest set bit
// over 4.
static size_t find_pair_neon(
    const uint8_t *p, size_t count, size_t i, uint8_t a0, uint8_t a1, uint8_t b0, uint8_t b1) {
  for (; i + 17 <= count; i += 16) {
    uint8x16_t here = vld1q_u8(p + i), next = vld1q_u8(p + i + 1);
    uint8x16_t hits = vorrq_u8(
        vandq_u8(vceqq_u8(here, vdupq_n_u8(a0)), vceqq_u8(next, vdupq_n_u8(a1))),
        vandq_u8(vceqq_u8(here, vdupq_n_u8(b0)), vceqq_u8(next, vdupq_n_u8(b1))));
    uint64_t bits =
        vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(hits), 4)), 0);
    if (bits) return i + (size_t)(__builtin_ctzll(bits) >> 2);
  }
  return find_pair_scalar(p, count, i, a0, a1, b0, b1);
}

#endif

size_t notif_simd_find_pair(
    const uint8_t *p, size_t count, size_t from, uint8_t a0, uint8_t a1, uint8_t b0, uint8_t b1,
    int level) {
  switch (level) {
#if defined(__x86_64__)
  case NOTIF_SIMD_AVX2:
    return find_pair_avx2(p, count, from, a0, a1, b0, b1);
  case NOTIF_SIMD_SSE2:
    return find_pair_sse2(p, count, from, a0, a1, b0, b1);
#elif defined(__aarch64__)
  case NOTIF_SIMD_NEON:
    return find_pair_neon(p, count, from, a0, a1, b0, b1);
#endif
  default:
    return find_pair_scalar(p, count, from, a0, a1, b0, b1);
  }
}

// MARK: - Entry points

void notif_simd_stops(const uint8_t *p, size_t blocks, uint64_t *out, int level) {
  switch (level) {
#if defined(__x86_64__)
  case NOTIF_SIMD_AVX2:
    stops_avx2(p, blocks, out);
    return;
  case NOTIF_SIMD_SSE2:
    for (size_t k = 0; k < blocks; k++) out[k] = block_sse2(p + 64 * k, 0).stops;
    return;
#elif defined(__aarch64__)
  case NOTIF_SIMD_NEON:
    for (size_t k = 0; k < blocks; k++) out[k] = block_neon(p + 64 * k, 0).stops;
    return;
#endif
  default:
    for (size_t k = 0; k < blocks; k++) out[k] = stops_scalar(p + 64 * k);
    return;
  }
}

void notif_simd_classify(
    const uint8_t *p, size_t blocks, notif_simd_block *out, notif_simd_carry *carry, int level) {
  switch (level) {
#if defined(__x86_64__)
  case NOTIF_SIMD_AVX2:
    classify_avx2(p, blocks, out, carry);
    return;
  case NOTIF_SIMD_SSE2:
    for (size_t k = 0; k < blocks; k++) finish(block_sse2(p + 64 * k, 1), out + k, carry);
    return;
#elif defined(__aarch64__)
  case NOTIF_SIMD_NEON:
    for (size_t k = 0; k < blocks; k++) finish(block_neon(p + 64 * k, 1), out + k, carry);
    return;
#endif
  default:
    for (size_t k = 0; k < blocks; k++) classify_scalar(p + 64 * k, out + k, carry);
    return;
  }
}
