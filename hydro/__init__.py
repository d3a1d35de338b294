"""hydro: high-order Lagrangian hydrodynamics (BLAST / Laghos method) on linalg."""
