"""Batched dense linear algebra for thousands to millions of small matrices, CPU and GPU.

NumPy arrays run on the CPU, CuPy arrays on the GPU; results come back in the input's array
module. Batches are (batch, rows, cols) C-ordered arrays, lists/tuples of 2-D arrays, or
:class:`VBatch` packed variable-size batches. See docs/design.md for the conventions.
"""
from ._errors import LinAlgError
from ._batch import VBatch

# ---- Cholesky family (LAPACK names) ----
from ._decomp_cholesky import potrf, potrs, posv, potri, poti

# ---- triangular BLAS and LAPACK ----
from ._triangular import trsm, trmm, trtri, lauum, trsv

# ---- BLAS: matrix products ----
from ._blas import gemm, gemv, syrk

# ---- bidiagonalization ----
from ._bidiag import gebrd, gebrd_unpack, GebrdResult

# ---- SciPy-named tier: drop-in for scipy.linalg / cupyx.scipy.linalg on batches ----
from ._decomp_cholesky import cholesky, cho_factor, cho_solve, inv
from ._triangular import solve_triangular

__version__ = "0.1.0"

__all__ = [
    "LinAlgError", "VBatch",
    "potrf", "potrs", "posv", "potri", "poti",
    "trsm", "trmm", "trtri", "lauum", "trsv",
    "gemm", "gemv", "syrk",
    "gebrd", "gebrd_unpack", "GebrdResult",
    "cholesky", "cho_factor", "cho_solve", "inv", "solve_triangular",
]
