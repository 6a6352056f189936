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

#endif
