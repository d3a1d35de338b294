#!/bin/sh
# Build the CPU emulator of gebrd_reg (scratch/gebrd2_emu.cpp) from kernels/gebrd.cu: the device
# helpers (norm_limits .. load16, Group, group_allreduce), RowMajorWalk, and the gebrd_reg section.
set -e
cd "$(dirname "$0")"
{
  sed -n '/^template <typename T> struct norm_limits;/,/^\/\/ c -= tau v (v^T c) for the length-L vector/p' ../kernels/gebrd.cu
  sed -n '/^struct RowMajorWalk {/,/^};/p' ../kernels/gebrd.cu
  sed -n '/^\/\/ beta, tau and v.s multipliers/,$p' ../kernels/gebrd.cu \
    | sed 's/extern __shared__ __align__(16) unsigned char gebrd_smem\[\];/unsigned char* gebrd_smem = g_smem;/'
} > gebrd2_emu_src.inc
# SAN=thread: ThreadSanitizer instead (shared-memory races between barriers, as racecheck)
g++ -std=c++20 -O1 -g -fsanitize=${SAN:-address,undefined} -fno-sanitize-recover=undefined -o /tmp/gebrd2_emu gebrd2_emu.cpp -lpthread
