// CPU emulation of gebrd_reg (kernels/gebrd.cu) on a batch of m x n matrices: one std::thread
// per lane of one group (one matrix a block, grid 1: the grid-stride loop reuses the shared
// memory), std::barrier for __syncwarp, shuffles through a slot array. Shared memory is a heap
// buffer of exactly the kernel's size, filled with NaN. Build: scratch/gebrd2_emu.sh.
// Usage: gebrd2_emu f|d N trs stage shrink batch m n in.bin out.bin (out: A, d, e, tauq, taup)
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
struct float2 { float x, y; };
struct double2 { double x, y; };
inline float2 make_float2(float a, float b) { return {a, b}; }
inline double2 make_double2(double a, double b) { return {a, b}; }
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
#include "gebrd2_emu_src.inc"

template <class T, int N, bool TRS, bool STAGE, bool SHRINK>
void go(int batch, int m, int n, T* A, T* d, T* e, T* tq, T* tp) {
    blockDim.x = N;
    std::barrier<> bar(N);
    g_bar = &bar;
    std::vector<std::thread> th;
    for (int t = 0; t < N; ++t)
        th.emplace_back([&, t] {
            threadIdx.x = t;
            gebrd_reg<T, N, TRS, STAGE, SHRINK>(batch, m, n, A, d, e, tq, tp, N);
        });
    for (auto& x : th) x.join();
}

template <class T, int N>
void dispatch(int trs, int stage, int shrink, int batch, int m, int n, T* A, T* d, T* e, T* tq,
              T* tp) {
    const int key = trs * 4 + stage * 2 + shrink;
    switch (key) {
    case 0: go<T, N, false, false, false>(batch, m, n, A, d, e, tq, tp); break;
    case 1: go<T, N, false, false, true>(batch, m, n, A, d, e, tq, tp); break;
    case 2: go<T, N, false, true, false>(batch, m, n, A, d, e, tq, tp); break;
    case 3: go<T, N, false, true, true>(batch, m, n, A, d, e, tq, tp); break;
    case 4: go<T, N, true, false, false>(batch, m, n, A, d, e, tq, tp); break;
    case 5: go<T, N, true, false, true>(batch, m, n, A, d, e, tq, tp); break;
    case 6: go<T, N, true, true, false>(batch, m, n, A, d, e, tq, tp); break;
    case 7: go<T, N, true, true, true>(batch, m, n, A, d, e, tq, tp); break;
    }
}

template <class T>
int run(int N, int trs, int stage, int shrink, int batch, int m, int n, const char* in,
        const char* out) {
    const int mn = m < n ? m : n;
    const size_t elems = reg_smem_elems(N, 16 / sizeof(T), trs, stage);
    T* sm = (T*)aligned_alloc(16, ((elems * sizeof(T) + 15) / 16) * 16);
    for (size_t q = 0; q < elems; ++q) sm[q] = numeric_limits<T>::quiet_NaN();
    g_smem = (unsigned char*)sm;
    std::vector<T> a((size_t)batch * m * n);
    FILE* f = fopen(in, "rb");
    if (fread(a.data(), sizeof(T), a.size(), f) != a.size()) return 2;
    fclose(f);
    std::vector<T> d((size_t)batch * mn, NAN), e((size_t)batch * (mn - 1) + 1, NAN),
        tq((size_t)batch * mn, NAN), tp((size_t)batch * mn, NAN);
    if (N == 8) dispatch<T, 8>(trs, stage, shrink, batch, m, n, a.data(), d.data(), e.data(), tq.data(), tp.data());
    if (N == 16) dispatch<T, 16>(trs, stage, shrink, batch, m, n, a.data(), d.data(), e.data(), tq.data(), tp.data());
    if (N == 32) dispatch<T, 32>(trs, stage, shrink, batch, m, n, a.data(), d.data(), e.data(), tq.data(), tp.data());
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
    const int N = atoi(argv[2]), trs = atoi(argv[3]), stage = atoi(argv[4]),
              shrink = atoi(argv[5]), batch = atoi(argv[6]), m = atoi(argv[7]), n = atoi(argv[8]);
    return argv[1][0] == 'f' ? run<float>(N, trs, stage, shrink, batch, m, n, argv[9], argv[10])
                             : run<double>(N, trs, stage, shrink, batch, m, n, argv[9], argv[10]);
}
