"""MPI for hydro: the only module that performs communication.

* :class:`Comm` wraps an mpi4py communicator, or stands alone for serial runs (size 1, no MPI).
* :func:`partition_zones`: balanced recursive coordinate bisection of the zones (structured
  blocks on generated boxes).
* :class:`SharedDofs`: sums H1 dof values shared between ranks, and the global dot product that
  counts every shared dof once (owner = lowest rank touching it).

Sums over shared dofs add the ranks' contributions in ascending rank order on every rank, so all
copies of a shared dof are bitwise equal.
"""
from __future__ import annotations

import numpy as np


class Comm:
    """Communicator facade. ``Comm()`` is serial; ``Comm.world()`` uses MPI.COMM_WORLD."""

    def __init__(self, mpi_comm=None):
        self._comm = mpi_comm
        self.rank = 0 if mpi_comm is None else mpi_comm.Get_rank()
        self.size = 1 if mpi_comm is None else mpi_comm.Get_size()

    @classmethod
    def world(cls) -> "Comm":
        """COMM_WORLD if mpi4py is importable, else a serial communicator."""
        try:
            from mpi4py import MPI
        except ImportError:
            return cls(None)
        return cls(MPI.COMM_WORLD)

    def allreduce(self, value, op: str = "sum"):
        """Global sum/min/max of a Python scalar or a NumPy array (returns the same kind)."""
        if self._comm is None or self.size == 1:
            return value
        from mpi4py import MPI
        mop = {"sum": MPI.SUM, "min": MPI.MIN, "max": MPI.MAX}[op]
        if isinstance(value, np.ndarray):
            out = np.empty_like(value)
            self._comm.Allreduce(np.ascontiguousarray(value), out, op=mop)
            return out
        return self._comm.allreduce(value, op=mop)

    def gather(self, obj, root: int = 0):
        """Gather a picklable object to ``root`` (list there, None elsewhere)."""
        if self._comm is None or self.size == 1:
            return [obj]
        return self._comm.gather(obj, root=root)

    def bcast(self, obj, root: int = 0):
        if self._comm is None or self.size == 1:
            return obj
        return self._comm.bcast(obj, root=root)

    def barrier(self):
        if self._comm is not None and self.size > 1:
            self._comm.Barrier()

    def exchange(self, sends: dict) -> dict:
        """Point-to-point exchange: {rank: array} sent, {rank: array of the same length} received."""
        from mpi4py import MPI
        reqs, recv = [], {}
        for r, buf in sends.items():
            recv[r] = np.empty_like(buf)
            reqs.append(self._comm.Irecv(recv[r], source=r, tag=77))
        for r, buf in sends.items():
            reqs.append(self._comm.Isend(np.ascontiguousarray(buf), dest=r, tag=77))
        MPI.Request.Waitall(reqs)
        return recv


def partition_zones(centers: np.ndarray, nparts: int) -> np.ndarray:
    """Balanced recursive coordinate bisection: part id (Z,) for zone centres (Z, dim).

    Each cut splits the zone set across its widest axis in proportion to the part counts, with
    ties broken by zone index so that the partition is deterministic.
    """
    part = np.zeros(len(centers), dtype=np.int64)

    def split(idx, first, count):
        if count == 1 or len(idx) == 0:
            part[idx] = first
            return
        pts = centers[idx]
        axis = int(np.argmax(np.ptp(pts, axis=0)))
        order = np.lexsort((idx, np.round(pts[:, axis], 12)))
        left_parts = count // 2
        cut = int(round(len(idx) * left_parts / count))
        split(idx[order[:cut]], first, left_parts)
        split(idx[order[cut:]], first + left_parts, count - left_parts)

    split(np.arange(len(centers)), 0, nparts)
    return part


class SharedDofs:
    """Shared H1 dofs between this rank and its neighbours.

    Built from the global zone -> dof map (Zg, ND), the zone partition (Zg,) and this rank's
    local dof list ``l2g`` (sorted global ids). ``sum(y)`` adds the other ranks' partial values at
    shared dofs into y (..., n); ``dot(a, b)`` is the global dot product of consistent vectors.
    """

    def __init__(self, comm: Comm, global_dof_map, zone_part, l2g, xp=np):
        self.comm, self.xp = comm, xp
        n_global = int(global_dof_map.max()) + 1
        me = comm.rank
        owner = np.full(n_global, comm.size, dtype=np.int64)
        touched = {}
        for r in range(comm.size):
            dofs = np.unique(global_dof_map[zone_part == r])
            touched[r] = dofs
            owner[dofs] = np.minimum(owner[dofs], r)
        self.owned = xp.asarray((owner[l2g] == me).astype(np.float64))
        self.neighbors = {}
        for r in range(comm.size):
            if r == me:
                continue
            common = np.intersect1d(touched[r], l2g, assume_unique=True)
            if len(common):
                # local positions of the shared global ids (l2g is sorted)
                self.neighbors[r] = np.searchsorted(l2g, common)
        # sum() moves only the shared entries: their local positions (sorted), a device copy to
        # gather them with, and each neighbour's entries as positions in that short list.
        self.shared = np.unique(np.concatenate([np.zeros(0, np.int64), *self.neighbors.values()]))
        self.shared_device = xp.asarray(self.shared)
        self.slots = {r: np.searchsorted(self.shared, loc) for r, loc in self.neighbors.items()}
        self.n = len(l2g)

    def sum(self, y):
        """Return y (..., n), a new array, with every shared dof replaced by the sum over all
        ranks; y itself as it is without neighbours. On the GPU only the shared entries cross
        to the host and back."""
        if not self.neighbors:
            return y
        xp = self.xp
        mine = y[..., self.shared_device]
        host = np.moveaxis(mine if xp is np else xp.asnumpy(mine), -1, 0)
        out = y.copy()
        total = np.moveaxis(self.sum_shared(host), 0, -1)
        out[..., self.shared_device] = total if xp is np else xp.asarray(total)
        return out

    def sum_shared(self, values):
        """Sums over all ranks of this rank's values (S, ...) at its shared dofs (the positions
        ``shared``, in that order), a new NumPy array of the same shape: each rank's values
        added in ascending rank order, so that every rank gets bitwise the same sums."""
        recv = self.comm.exchange({r: np.ascontiguousarray(values[slot])
                                   for r, slot in self.slots.items()})
        total = np.zeros_like(values)
        for r in sorted(list(self.neighbors) + [self.comm.rank]):
            if r == self.comm.rank:
                total += values
            else:
                total[self.slots[r]] += recv[r]
        return total

    def dot(self, a, b) -> float:
        """Global (a, b) with each dof counted once; a, b (..., n)."""
        if self.comm.size == 1:
            return float(a.ravel() @ b.ravel())
        local = float((a * b * self.owned).sum())
        return self.comm.allreduce(local, "sum")

    def dot_rows(self, a, b):
        """Global (a_i, b_i) of each row of a, b (k, n), each dof counted once: NumPy (k,).

        On the CPU each row is one BLAS dot (as ``dot``); on the GPU one reduction kernel and one
        copy to the host serve all rows (the PCG's residual check for every component at once).
        """
        xp = self.xp
        if self.comm.size == 1:
            if xp is np:
                return np.array([ai @ bi for ai, bi in zip(a, b)])
            return xp.asnumpy((a * b).sum(axis=-1))
        local = (a * b * self.owned).sum(axis=-1)
        return self.comm.allreduce(local if xp is np else xp.asnumpy(local), "sum")

    def global_sum(self, value, op: str = "sum"):
        """Global reduction of a local scalar (sum/min/max)."""
        return self.comm.allreduce(value, op)
