/* The inner loops of vector search with AVX2 and FMA, for the CPUs that have them
 * (docs/vector-search.md, "Speed"): Swift's portable SIMD targets x86-64's baseline,
 * SSE2, where these run at about half the speed. Call them only when
 * doclite_vector_kernels_available() says so; the Swift code has the portable loops. */
#ifndef DOCLITE_VECTOR_KERNELS_H
#define DOCLITE_VECTOR_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/** Whether this CPU runs the kernels (x86-64 with AVX2 and FMA); 0 elsewhere. */
int doclite_vector_kernels_available(void);

/** Σ (a[i] − b[i])² over `n` float32 items, at any alignment. */
float doclite_squared_distance(const void *a, const void *b, size_t n);

/** Σ a[i] × b[i] over `n` float32 items, at any alignment. */
float doclite_dot(const void *a, const void *b, size_t n);

/** Σ (shifted[i] − codes[i] × step[i])² over `n` one-byte levels: a scalar-quantized
 *  vector's squared distance, its query less each dimension's first level. */
float doclite_levels_squared_distance(const uint8_t *codes, const float *shifted, const float *step, size_t n);

/** Σ codes[i] × weights[i] over `n` one-byte levels. */
float doclite_levels_dot(const uint8_t *codes, const float *weights, size_t n);

/** The product of every x with every y (`xCount` and `yCount` vectors of `n` float32
 *  items, one after another, at any alignment): out[i × yCount + j] = x_i · y_j. */
void doclite_dot_products(const void *x, size_t xCount, const void *y, size_t yCount, size_t n, float *out);

#endif
