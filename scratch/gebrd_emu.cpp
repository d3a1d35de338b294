// CPU emulation of gebrd_cols (kernels/gebrd.cu) on a batch of m x n matrices: one std::thread
// per thread of one group (one matrix a block, grid 1: the grid-stride loop reuses the shared
// memory), std::barrier for bar.sync/__syncwarp, shuffles through a slot array. Shared memory is
// a heap buffer of exactly the kernel's size, filled with NaN, so that reads of unwritten data
// show up in the results (and AddressSanitizer catches overruns). Build: scratch/gebrd_emu.sh.
// Usage: gebrd_emu f|d fused shared_s peel group batch m n in.bin out.bin
// (out: A, d, e, tauq, taup)
#include <barrier>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
#include <limits>
using namespace std;
#define __device__
#define __host__
#define __global__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __restrict__ __restrict
typedef long long index_t;
struct float4 { float x, y, z, w; };
struct double2 { double x, y; };
struct Dim { int x; };
thread_local Dim threadIdx;
Dim blockIdx{0}, gridDim{1}, blockDim{0};
static unsigned char* g_smem;
static std::barrier<>* g_bar;
static double g_slots[1024];
inline void emu_sync() { g_bar->arrive_and_wait(); }
inline void __syncwarp(unsigned) { emu_sync(); }
template <class T> T __shfl_xor_sync(unsigned, T v, int off, int width = 32) {
    const int r = threadIdx.x;
    g_slots[r] = (double)v;
    emu_sync();
    const int lane = r & 31;
    const T out = (T)g_slots[r - lane + (lane & ~(width - 1)) + ((lane ^ off) & (width - 1))];
    emu_sync();
    return out;
}
template <class T> T __shfl_sync(unsigned, T v, int src, int width = 32) {
    const int r = threadIdx.x;
    g_slots[r] = (double)v;
    emu_sync();
    const int lane = r & 31;
    const T out = (T)g_slots[r - lane + (lane & ~(width - 1)) + src % width];
    emu_sync();
    return out;
}
struct Team {
    int size, rank, index;
    unsigned mask;
};
inline Team make_team(int size) {
    Team t;
    t.size = size;
    t.rank = threadIdx.x % size;
    t.index = threadIdx.x / size;
    t.mask = 0xffffffffu;
    return t;
}
#include "gebrd_emu_src.inc"

template <class T, bool WIDE, bool FUSED, bool SHARED_S, bool PEEL>
void go(int G, int batch, int m, int n, T* A, T* d, T* e, T* tq, T* tp) {
    blockDim.x = G;
    std::barrier<> bar(G);
    g_bar = &bar;
    std::vector<std::thread> th;
    for (int t = 0; t < G; ++t)
        th.emplace_back([&, t] {
            threadIdx.x = t;
            gebrd_cols<T, WIDE, FUSED, 128, SHARED_S, PEEL>(batch, m, n, A, d, e, tq, tp, G);
        });
    for (auto& x : th) x.join();
}

template <class T, bool WIDE>
void dispatch(int fused, int shared_s, int peel, int G, int batch, int m, int n, T* A, T* d, T* e,
              T* tq, T* tp) {
    switch (fused ? 1 + shared_s * 2 + peel : 0) {
    case 0: go<T, WIDE, false, false, false>(G, batch, m, n, A, d, e, tq, tp); break;
    case 1: go<T, WIDE, true, false, false>(G, batch, m, n, A, d, e, tq, tp); break;
    case 2: go<T, WIDE, true, false, true>(G, batch, m, n, A, d, e, tq, tp); break;
    case 3: go<T, WIDE, true, true, false>(G, batch, m, n, A, d, e, tq, tp); break;
    case 4: go<T, WIDE, true, true, true>(G, batch, m, n, A, d, e, tq, tp); break;
    }
}

template <class T>
int run(int fused, int shared_s, int peel, int G, int batch, int m, int n, const char* in,
        const char* out) {
    const int mn = m < n ? m : n, R = m > n ? m : n;
    const size_t elems = fused ? fused_smem_elems(R, mn, G) : cols_smem_elems(R, mn, G);
    T* sm = (T*)aligned_alloc(16, ((elems * sizeof(T) + 15) / 16) * 16);
    for (size_t q = 0; q < elems; ++q) sm[q] = numeric_limits<T>::quiet_NaN();
    g_smem = (unsigned char*)sm;
    std::vector<T> a((size_t)batch * m * n);
    FILE* f = fopen(in, "rb");
    if (fread(a.data(), sizeof(T), a.size(), f) != a.size()) return 2;
    fclose(f);
    std::vector<T> d((size_t)batch * mn, NAN), e((size_t)batch * (mn - 1) + 1, NAN),
        tq((size_t)batch * mn, NAN), tp((size_t)batch * mn, NAN);
    T *A = a.data(), *dd = d.data(), *ee = e.data(), *q = tq.data(), *p = tp.data();
    if (G > 32) dispatch<T, true>(fused, shared_s, peel, G, batch, m, n, A, dd, ee, q, p);
    else dispatch<T, false>(fused, shared_s, peel, G, batch, m, n, A, dd, ee, q, p);
    f = fopen(out, "wb");
    fwrite(a.data(), sizeof(T), a.size(), f);
    fwrite(d.data(), sizeof(T), (size_t)batch * mn, f);
    fwrite(e.data(), sizeof(T), (size_t)batch * (mn - 1), f);
    fwrite(tq.data(), sizeof(T), (size_t)batch * mn, f);
    fwrite(tp.data(), sizeof(T), (size_t)batch * mn, f);
    fclose(f);
    free(sm);
    return 0;
}

int main(int argc, char** argv) {
    if (argc != 11) return 1;
    const int fused = atoi(argv[2]), shared_s = atoi(argv[3]), peel = atoi(argv[4]),
              G = atoi(argv[5]), batch = atoi(argv[6]), m = atoi(argv[7]), n = atoi(argv[8]);
    return argv[1][0] == 'f'
               ? run<float>(fused, shared_s, peel, G, batch, m, n, argv[9], argv[10])
               : run<double>(fused, shared_s, peel, G, batch, m, n, argv[9], argv[10]);
}
