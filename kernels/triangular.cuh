// triangular.cuh: the flag words of the triangular kernels (trsm.cu, tri_warp.cu, tri_pair.cu),
// the same numbers as linalg/_cuda/triangular.py TRI_* and TRI_WARP_*.
#pragma once

#define TRI_RIGHT 1
#define TRI_LOWER 2
#define TRI_TRANS 4
#define TRI_UNIT 8
#define TRI_MUL 16
#define TRI_POTRS 32
// MODE template parameter of tri_warp and tri_pair (one path per instantiation).
#define TRI_WARP_MUL 0
#define TRI_WARP_SOLVE 1
#define TRI_WARP_POTRS 2
