// SHA-256 block compression with the x86 SHA extensions. A model's version hashes take
// two digests per property; the instructions do a block in a few dozen cycles where
// portable code takes a few thousand instructions. Other CPUs use the Swift code.
#include "csha256.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int vellum_sha256_hardware_available(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const int ssse3 = (c >> 9) & 1, sse41 = (c >> 19) & 1;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    const int sha = (b >> 29) & 1;
    return ssse3 && sse41 && sha;
}

__attribute__((target("sha,sse4.1,ssse3")))
void vellum_sha256_compress_hardware(uint32_t state[8], const uint8_t *data, size_t blocks,
                                     const uint32_t round_constants[64]) {
    // The round instruction keeps the state as two registers, A B E F and C D G H
    // (A in the highest lane): rearranged from a…h once, and back at the end.
    const __m128i big_endian_words = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
    __m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);

    for (size_t n = 0; n < blocks; n++, data += 64) {
        const __m128i abef_before = abef, cdgh_before = cdgh;
        // The schedule, four words per register: w[i % 4] holds words 4i … 4i+3.
        __m128i w[4];
        for (int i = 0; i < 4; i++) {
            w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)), big_endian_words);
        }
        for (int group = 0; group < 16; group++) {
            __m128i words = w[group % 4];
            if (group >= 4) {
                // Words 4g … 4g+3 from the sixteen before them: σ0 terms (msg1), the words
                // seven back (alignr), then σ1 terms (msg2).
                const __m128i older = _mm_sha256msg1_epu32(w[group % 4], w[(group + 1) % 4]);
                const __m128i seven_back = _mm_alignr_epi8(w[(group + 3) % 4], w[(group + 2) % 4], 4);
                words = _mm_sha256msg2_epu32(_mm_add_epi32(older, seven_back), w[(group + 3) % 4]);
                w[group % 4] = words;
            }
            __m128i sums = _mm_add_epi32(words, _mm_loadu_si128((const __m128i *)&round_constants[4 * group]));
            // Two rounds per instruction; the result is the new A B E F, the old one
            // becomes C D G H.
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, sums);
            sums = _mm_shuffle_epi32(sums, 0x0E);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, sums);
        }
        abef = _mm_add_epi32(abef, abef_before);
        cdgh = _mm_add_epi32(cdgh, cdgh_before);
    }

    // Back to a…h.
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

#else

int vellum_sha256_hardware_available(void) { return 0; }

void vellum_sha256_compress_hardware(uint32_t state[8], const uint8_t *data, size_t blocks,
                                     const uint32_t round_constants[64]) {
    (void)state; (void)data; (void)blocks; (void)round_constants;
}

#endif
