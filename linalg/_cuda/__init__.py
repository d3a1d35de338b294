"""GPU backend: CuPy launchers of the CUDA kernels in kernels/ (installed as linalg/_kernels).

CuPy is imported only inside this package, so ``import linalg`` works without it. Each module
mirrors a ``linalg/_cpu`` module (same function names and signatures, docs/design.md).
"""
