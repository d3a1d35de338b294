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

// Offset (i * ld + j) of entry (i, j) of a rows x cols block (rows, cols >= 1), clamped into the
// block and, for a square block, into a triangle (tri 1: lower, j <= i; 0: upper, j >= i; -1:
// the whole block). A lane whose entry lies off the block or the triangle loads one of the row
// that the warp reads anyway (no extra sectors), so the load is unconditional and only its use
// is guarded: ptxas serialised guarded loads in unrolled copies (kernels/trsv.cu
// trsv_staged_copy: long-scoreboard stalls 18 cycles an instruction against 4.6; kernels/potrf.cu
// chol_panel: 66 -> 85-89 % of the copy bandwidth on the H100).
__device__ __forceinline__ index_t clamped_offset(int i, int j, int rows, int cols, int tri,
                                                 index_t ld) {
    const int ic = min(i, rows - 1);
    int jc = min(j, cols - 1);
    if (tri == 1) jc = min(jc, ic); else if (tri == 0) jc = max(jc, ic);
    return (index_t)ic * ld + jc;
}

#ifdef __CUDACC__
// Asynchronous global -> shared copies (cp.async, sm_80+), shared by the kernels that stage
// operands while they compute (gemm.cu, trmm.cu, tri_block.cu). One element (.ca takes the 4 or
// 8 bytes of a float or double) or 16 bytes (.cg; 16-byte aligned source and destination).
template <typename T>
__device__ __forceinline__ void cp_async_element(T* dst, const T* src) {
    const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(d), "l"(src), "n"(sizeof(T))
                 : "memory");
}
__device__ __forceinline__ void cp_async_16(void* dst, const void* src) {
    const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src) : "memory");
}
// Closes this thread's copies issued since the last commit into one group.
__device__ __forceinline__ void cp_async_commit() {
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}
// Waits until at most N of this thread's committed groups (the most recent) are pending.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}
// Waits for all of this thread's copies (the block's need a barrier after it).
__device__ __forceinline__ void cp_async_wait_all() {
    asm volatile("cp.async.wait_all;\n" ::: "memory");
}
// d += a b for one 16 x 8 x 8 fragment in float64 on the tensor cores (DMMA; this shape needs
// sm_90, with 4 times the work of sm_80's m8n8k4 an instruction). Lane l, g = l / 4, q = l % 4:
// a = A(g, q), A(g + 8, q), A(g, q + 4), A(g + 8, q + 4); b = B(q, g), B(q + 4, g); d = C(g, 2q),
// C(g, 2q + 1), C(g + 8, 2q), C(g + 8, 2q + 1). Used by trmm.cu tri_tile and potrf.cu chol_tensor.
__device__ __forceinline__ void dmma_16x8x8(double (&d)[4], const double (&a)[4],
                                            const double (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
}

// Thread-block clusters (sm_90): a barrier of every thread of the cluster with release / acquire
// at cluster scope (writes before it, to global or shared memory, are seen after it by the
// cluster's blocks), also in its two halves (arrive, then wait: work between them overlaps the
// others' arrival); and a load from another block's shared memory (distributed shared memory:
// the address of p in the cluster's block `rank`). Used by potrf.cu chol_cluster and trmm.cu
// tri_tile_split; before sm_90 the wait is a block barrier (never launched there).
__device__ __forceinline__ void cluster_arrive() {
#if __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
#endif
}
__device__ __forceinline__ void cluster_wait() {
#if __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
#else
    __syncthreads();
#endif
}
__device__ __forceinline__ void cluster_barrier() {
    cluster_arrive();
    cluster_wait();
}
// The shared-window address of p (this block's shared memory) in the cluster's block `rank`.
__device__ __forceinline__ unsigned cluster_shared_address(const void* p, int rank) {
    unsigned r = static_cast<unsigned>(__cvta_generic_to_shared(p));
#if __CUDA_ARCH__ >= 900
    asm volatile("mapa.shared::cluster.u32 %0, %0, %1;" : "+r"(r) : "r"(rank));
#endif
    return r;
}
__device__ __forceinline__ double ld_cluster_shared(unsigned address) {
    double v;
#if __CUDA_ARCH__ >= 900
    asm volatile("ld.shared::cluster.f64 %0, [%1];" : "=d"(v) : "r"(address) : "memory");
#else
    asm volatile("ld.shared.f64 %0, [%1];" : "=d"(v) : "r"(address) : "memory");
#endif
    return v;
}

// The bulk copy engine (sm_90): cp.async.bulk moves `bytes` (a multiple of 16; both addresses
// 16-byte aligned) from global to this block's shared memory without registers or a thread
// per element, and reports its bytes to an mbarrier in shared memory. A consumer waits on the
// barrier's phase parity; the phase completes once its expected arrivals came (one: the
// thread that registered the bytes with mbar_expect_bytes) and every registered byte landed.
// Used by gemm.cu gemm_stream; never launched before sm_90 (the bodies are empty there).
__device__ __forceinline__ unsigned shared_address(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(unsigned long long* bar, unsigned arrivals) {
#if __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)),
                 "r"(arrivals) : "memory");
    // the barrier's initialization must be visible to the copy engine before its first use
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}
// One arrival that also adds `bytes` to the bytes the current phase waits for.
__device__ __forceinline__ void mbar_expect_bytes(unsigned long long* bar, unsigned bytes) {
#if __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 ::"r"(shared_address(bar)), "r"(bytes) : "memory");
#endif
}
__device__ __forceinline__ void mbar_wait(unsigned long long* bar, unsigned parity) {
#if __CUDA_ARCH__ >= 900
    asm volatile("{\n\t.reg .pred ready;\n"
                 "poll:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 ready, [%0], %1;\n\t"
                 "@!ready bra poll;\n}" ::"r"(shared_address(bar)), "r"(parity) : "memory");
#endif
}
__device__ __forceinline__ void bulk_copy_to_shared(void* dst, const void* src, unsigned bytes,
                                                    unsigned long long* bar) {
#if __CUDA_ARCH__ >= 900
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                 "[%0], [%1], %2, [%3];" ::"r"(shared_address(dst)), "l"(src), "r"(bytes),
                 "r"(shared_address(bar)) : "memory");
#endif
}
// A ring of `stages` buffers (stages <= RING_BARRIERS), each released by its own mbarrier, that
// a persistent block walks with a grid stride (gemm.cu gemm_stream, gemv.cu gemv_stream): the
// barriers take the first RING_BARRIER_BYTES of dynamic shared memory; the block's it-th chunk
// (it = 0, 1, ...) sits in buffer it % stages, whose phase parity is then (it / stages) & 1.
constexpr int RING_BARRIERS = 16;
constexpr int RING_BARRIER_BYTES = RING_BARRIERS * 8;
// Thread 0 initializes the barriers; the caller's next __syncthreads publishes them.
__device__ __forceinline__ void ring_init(unsigned long long* bars, int stages) {
    if (threadIdx.x == 0)
        for (int s = 0; s < stages; ++s) mbar_init(&bars[s], 1);
}
// Waits until the block's it-th chunk has landed; returns its buffer.
__device__ __forceinline__ int ring_wait(unsigned long long* bars, int stages, int it) {
    const int s = it % stages;
    mbar_wait(&bars[s], (it / stages) & 1);
    return s;
}
// Orders this thread's earlier shared-memory accesses (ordinary loads and stores) before the
// copy engine's next writes to the same memory (a buffer reused after a barrier).
__device__ __forceinline__ void fence_async_shared() {
#if __CUDA_ARCH__ >= 900
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}
#endif
