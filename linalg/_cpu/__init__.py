"""CPU backend: NumPy implementations on strided batches, vectorized over the batch.

Each module mirrors a ``linalg/_cuda`` module with the same function names and signatures
(docs/design.md, "Backend functions").
"""
