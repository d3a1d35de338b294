"""Finite element spaces: continuous H1 Q_k (kinematic) and discontinuous L2 Q_p (thermodynamic).

H1 global numbering: nodes shared by zones are identified by their (quantized) coordinates on the
initial mesh, so the numbering depends only on the geometry, not on the zone order or on the MPI
partition (every rank derives the same global ids). Global dofs are sorted lexicographically by
coordinates (last axis slowest).

L2 dofs are zone-local: dof j of zone z is z * NE + j (NE = dofs per zone).
"""
from __future__ import annotations

import numpy as np

from hydro.basis import ReferenceElement
from hydro.mesh import Mesh


class H1Space:
    """Scalar H1 Q_k space on ``mesh`` (vector fields use one copy per component).

    Attributes:
      dof_map (Z, ND) int64: global dof of each zone's local (tensor-ordered) Gauss-Lobatto node;
      num_dofs N; node_coords (N, dim): initial coordinates of every global dof;
      essential[c]: sorted global dofs where velocity component c is fixed (boundary attribute c+1).
    """

    def __init__(self, mesh: Mesh, ref: ReferenceElement):
        self.dim, self.ref = mesh.dim, ref
        nodes = mesh.map_points(ref.h1_nodes)  # (Z, ND, dim)
        extent = np.ptp(mesh.corners.reshape(-1, mesh.dim), axis=0).max()
        self.dof_map, self.node_coords = _number_points(nodes, extent)
        self.num_dofs = len(self.node_coords)
        self.essential = _essential_dofs(self.dof_map, self.node_coords, ref, mesh.dim, extent)


def _number_points(nodes: np.ndarray, extent: float) -> tuple[np.ndarray, np.ndarray]:
    """Identify coincident points of ``nodes`` (Z, ND, dim): (ids (Z, ND), unique coords (N, dim))."""
    Z, nd, dim = nodes.shape
    pts = nodes.reshape(-1, dim)
    # Quantize at 1e-9 of the domain size: shared nodes differ only by round-off.
    keys = np.round(pts / (extent * 1e-9)).astype(np.int64)
    # lexsort with the last axis as the primary key -> "last axis slowest"
    uniq, first, inverse = np.unique(keys[:, ::-1], axis=0, return_index=True, return_inverse=True)
    return inverse.reshape(Z, nd).astype(np.int64), pts[first]


def _face_local_dofs(ref: ReferenceElement, dim: int) -> list[tuple[int, int, np.ndarray]]:
    """[(axis, side, local H1 dofs on that face)] for the 2*dim faces of the reference element."""
    n = ref.order + 1
    idx = np.indices((n,) * dim).reshape(dim, -1)[::-1]  # idx[a] = 1-D index along axis a
    faces = []
    for axis in range(dim):
        for side, val in ((0, 0), (1, n - 1)):
            faces.append((axis, side, np.nonzero(idx[axis] == val)[0]))
    return faces


def _essential_dofs(dof_map, coords, ref, dim, extent) -> list[np.ndarray]:
    """Dofs on boundary faces, by attribute: faces in planes x/y/z = const fix v_x/v_y/v_z."""
    faces = _face_local_dofs(ref, dim)
    Z = dof_map.shape[0]
    # A face is identified by the sorted set of its dofs; a boundary face belongs to one zone.
    face_dofs = np.stack([dof_map[:, f[2]] for f in faces], axis=1)  # (Z, 2*dim, nf)
    keys = np.sort(face_dofs, axis=2).reshape(Z * 2 * dim, -1)
    _, inv, counts = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    boundary = (counts[inv.ravel()] == 1)
    bdofs = face_dofs.reshape(Z * 2 * dim, -1)[boundary]  # (nb, nf)
    essential = []
    fc = coords[bdofs]  # (nb, nf, dim)
    for c in range(dim):
        planar = np.ptp(fc[:, :, c], axis=1) <= 1e-10 * extent
        essential.append(np.unique(bdofs[planar]))
    return essential


class L2Space:
    """Discontinuous Q_p space with the Bernstein basis: ``num_dofs = Z * nd``."""

    def __init__(self, num_zones: int, ref: ReferenceElement):
        self.nd = ref.nd_l2
        self.num_zones = num_zones
        self.num_dofs = num_zones * self.nd


class LocalH1:
    """The part of an H1 space touched by a subset of zones (an MPI rank's zones).

    l2g (n,): global id of each local dof (sorted); dof_map (Zl, ND): local ids;
    essential[c]: local ids of essential dofs of component c.
    """

    def __init__(self, space: H1Space, zones: np.ndarray):
        gmap = space.dof_map[zones]
        self.l2g, inv = np.unique(gmap, return_inverse=True)
        self.dof_map = inv.reshape(gmap.shape).astype(np.int64)
        self.num_dofs = len(self.l2g)
        self.essential = [np.nonzero(np.isin(self.l2g, e))[0] for e in space.essential]
        self.node_coords = space.node_coords[self.l2g]
