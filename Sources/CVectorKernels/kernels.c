#include "doclite_vector_kernels.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#include <string.h>

/* The vectors may come straight from SQLite blobs, at any alignment: every load is unaligned. */
static inline float item(const char *p, size_t i) {
    float value;
    memcpy(&value, p + i * sizeof value, sizeof value);
    return value;
}

/* Eight float32s from item `i` on. */
#define LOAD8(p, i) _mm256_loadu_ps((const float *)(const void *)((p) + (i) * sizeof(float)))

#define KERNEL __attribute__((target("avx2,fma")))

int doclite_vector_kernels_available(void) {
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

/** The sum of the eight lanes of `v`. */
KERNEL static float lanes_sum(__m256 v) {
    __m128 sum = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    sum = _mm_add_ps(sum, _mm_movehl_ps(sum, sum));
    sum = _mm_add_ss(sum, _mm_shuffle_ps(sum, sum, 1));
    return _mm_cvtss_f32(sum);
}

/** Eight one-byte levels as floats. */
KERNEL static __m256 levels(const uint8_t *codes) {
    return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)codes)));
}

KERNEL float doclite_squared_distance(const void *x, const void *y, size_t n) {
    const char *a = x, *b = y;
    __m256 sum0 = _mm256_setzero_ps(), sum1 = _mm256_setzero_ps();
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256 d0 = _mm256_sub_ps(LOAD8(a, i), LOAD8(b, i));
        __m256 d1 = _mm256_sub_ps(LOAD8(a, i + 8), LOAD8(b, i + 8));
        sum0 = _mm256_fmadd_ps(d0, d0, sum0);
        sum1 = _mm256_fmadd_ps(d1, d1, sum1);
    }
    float sum = lanes_sum(_mm256_add_ps(sum0, sum1));
    for (; i < n; i++) sum += (item(a, i) - item(b, i)) * (item(a, i) - item(b, i));
    return sum;
}

KERNEL float doclite_dot(const void *x, const void *y, size_t n) {
    const char *a = x, *b = y;
    __m256 sum0 = _mm256_setzero_ps(), sum1 = _mm256_setzero_ps();
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        sum0 = _mm256_fmadd_ps(LOAD8(a, i), LOAD8(b, i), sum0);
        sum1 = _mm256_fmadd_ps(LOAD8(a, i + 8), LOAD8(b, i + 8), sum1);
    }
    float sum = lanes_sum(_mm256_add_ps(sum0, sum1));
    for (; i < n; i++) sum += item(a, i) * item(b, i);
    return sum;
}

KERNEL float doclite_levels_squared_distance(const uint8_t *codes, const float *shifted, const float *step, size_t n) {
    __m256 sum = _mm256_setzero_ps();
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 d = _mm256_fnmadd_ps(levels(codes + i), _mm256_loadu_ps(step + i), _mm256_loadu_ps(shifted + i));
        sum = _mm256_fmadd_ps(d, d, sum);
    }
    float total = lanes_sum(sum);
    for (; i < n; i++) {
        float d = shifted[i] - (float)codes[i] * step[i];
        total += d * d;
    }
    return total;
}

KERNEL float doclite_levels_dot(const uint8_t *codes, const float *weights, size_t n) {
    __m256 sum = _mm256_setzero_ps();
    size_t i = 0;
    for (; i + 8 <= n; i += 8) sum = _mm256_fmadd_ps(levels(codes + i), _mm256_loadu_ps(weights + i), sum);
    float total = lanes_sum(sum);
    for (; i < n; i++) total += (float)codes[i] * weights[i];
    return total;
}

/* The sums of eight lanes of each of a, b, c and d, in one vector's first four lanes. */
KERNEL static __m128 four_sums(__m256 a, __m256 b, __m256 c, __m256 d) {
    __m256 ab = _mm256_hadd_ps(a, b), cd = _mm256_hadd_ps(c, d);
    __m256 abcd = _mm256_hadd_ps(ab, cd);
    return _mm_add_ps(_mm256_castps256_ps128(abcd), _mm256_extractf128_ps(abcd, 1));
}

KERNEL void doclite_dot_products(const void *x, size_t xCount, const void *y, size_t yCount, size_t n, float *out) {
    const size_t stride = n * sizeof(float);
    const size_t body = n - n % 8;
    /* Tiles of two x by four y: each load of an x feeds four products, each of a y two.
       (Past the last row, a tile repeats the last one and drops what it computed.) */
    for (size_t i = 0; i < xCount; i += 2) {
        const char *a0 = (const char *)x + i * stride;
        const char *a1 = i + 1 < xCount ? a0 + stride : a0;
        for (size_t j = 0; j < yCount; j += 4) {
            const char *b[4];
            for (size_t t = 0; t < 4; t++) b[t] = (const char *)y + (j + t < yCount ? j + t : yCount - 1) * stride;
            __m256 s00 = _mm256_setzero_ps(), s01 = s00, s02 = s00, s03 = s00, s10 = s00, s11 = s00, s12 = s00, s13 = s00;
            for (size_t k = 0; k < body; k += 8) {
                __m256 x0 = LOAD8(a0, k), x1 = LOAD8(a1, k), v;
                v = LOAD8(b[0], k); s00 = _mm256_fmadd_ps(x0, v, s00); s10 = _mm256_fmadd_ps(x1, v, s10);
                v = LOAD8(b[1], k); s01 = _mm256_fmadd_ps(x0, v, s01); s11 = _mm256_fmadd_ps(x1, v, s11);
                v = LOAD8(b[2], k); s02 = _mm256_fmadd_ps(x0, v, s02); s12 = _mm256_fmadd_ps(x1, v, s12);
                v = LOAD8(b[3], k); s03 = _mm256_fmadd_ps(x0, v, s03); s13 = _mm256_fmadd_ps(x1, v, s13);
            }
            float first[4], second[4];
            _mm_storeu_ps(first, four_sums(s00, s01, s02, s03));
            _mm_storeu_ps(second, four_sums(s10, s11, s12, s13));
            for (size_t t = 0; t < 4 && j + t < yCount; t++) {
                for (size_t k = body; k < n; k++) {
                    first[t] += item(a0, k) * item(b[t], k);
                    second[t] += item(a1, k) * item(b[t], k);
                }
                out[i * yCount + j + t] = first[t];
                if (i + 1 < xCount) out[(i + 1) * yCount + j + t] = second[t];
            }
        }
    }
}

#else

int doclite_vector_kernels_available(void) { return 0; }

/* (Never called where unavailable: the Swift loops run instead.) */
float doclite_squared_distance(const void *a, const void *b, size_t n) { (void)a; (void)b; (void)n; return 0; }
float doclite_dot(const void *a, const void *b, size_t n) { (void)a; (void)b; (void)n; return 0; }
float doclite_levels_squared_distance(const uint8_t *codes, const float *shifted, const float *step, size_t n) {
    (void)codes; (void)shifted; (void)step; (void)n;
    return 0;
}
float doclite_levels_dot(const uint8_t *codes, const float *weights, size_t n) { (void)codes; (void)weights; (void)n; return 0; }
void doclite_dot_products(const void *x, size_t xCount, const void *y, size_t yCount, size_t n, float *out) {
    (void)x; (void)y; (void)n;
    for (size_t i = 0; i < xCount * yCount; i++) out[i] = 0;
}

#endif
