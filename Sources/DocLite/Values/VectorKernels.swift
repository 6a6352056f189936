import CVectorKernels

/// Whether vector search's inner loops run as the C kernels of `CVectorKernels` (AVX2 and
/// FMA, about twice the speed of Swift's portable SIMD on x86-64's baseline), decided
/// once from the CPU; elsewhere the Swift loops run.
enum VectorKernels {
    static let available = doclite_vector_kernels_available() != 0
}
