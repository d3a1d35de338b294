// common.cuh: shared device helpers for all kernel families.
//
// Layout everywhere: row-major matrices, strided batches; matrix k of a batch starts at
// A + k * stride_a and entry (i, j) is A[k * stride_a + i * lda + j].
// Kernels loop over the batch with a grid stride so batch counts beyond the grid limit work.
#pragma once

// 64-bit batch offsets: batch * n * n overflows 32 bits for large batches of large matrices.
typedef long long index_t;

template <typename T> struct real_limits;
template <> struct real_limits<float> {
    __device__ static float eps() { return 1.1920929e-07f; }
};
template <> struct real_limits<double> {
    __device__ static double eps() { return 2.220446049250313e-16; }
};

template <typename T>
__device__ __forceinline__ bool is_finite_nonzero(T x) {
    return x != T(0) && isfinite(x);
}
