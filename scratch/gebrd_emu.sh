#!/bin/sh
# Build the CPU emulator of gebrd_cols (scratch/gebrd_emu.cpp) from kernels/gebrd.cu: everything
# from norm_limits to the end of gebrd_cols (gebd2_tall, gebd2_fused and their helpers), the
# named barrier and the dynamic shared memory replaced by the emulator's. FMA contraction on, as
# nvcc contracts a * b + c.
set -e
cd "$(dirname "$0")"
awk '/^template <typename T> struct norm_limits;/ {on = 1}
     /^\/\/ gebrd_reg<T, N, TRS, STAGE, SHRINK>: the matrix in registers/ {on = 0}
     on' ../kernels/gebrd.cu \
  | sed 's/asm volatile("bar.sync %0, %1;" ::"r"(index + 1), "r"(size) : "memory");/emu_sync();/' \
  | sed 's/extern __shared__ __align__(16) unsigned char gebrd_smem\[\];/unsigned char* gebrd_smem = g_smem;/' \
  > gebrd_emu_src.inc
grep -q 'emu_sync();' gebrd_emu_src.inc && grep -q 'gebrd_smem = g_smem' gebrd_emu_src.inc
# SAN=thread: ThreadSanitizer instead (shared-memory races between barriers, as racecheck)
g++ -std=c++20 -O1 -g -mfma -ffp-contract=fast -fsanitize=${SAN:-address,undefined} \
  -fno-sanitize-recover=undefined -o /tmp/gebrd_emu gebrd_emu.cpp -lpthread
