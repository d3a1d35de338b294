"""Straight-sided (multilinear) meshes of segments, quads and hexes.

A mesh is the list of its zones, each given by its 2**dim corner points in tensor order (corner
(c0, c1, c2) in {0,1}^dim has index c0 + 2*c1 + 4*c2; MFEM's counter-clockwise quad order
0,1,2,3 is tensor order 0,1,3,2). High-order geometry starts from the multilinear map of the
corners; the H1 position field then moves the Gauss-Lobatto nodes freely.

Boundary attributes follow Laghos: a boundary face lying in a plane x = const has attribute 1,
y = const 2, z = const 3 (v_x, v_y, v_z = 0 there). We derive them from the face geometry, which
is what the Laghos meshes encode (all their walls are axis-aligned planes).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hydro import basis

# MFEM vertex order -> tensor corner order.
_MFEM_TO_TENSOR = {1: [0, 1], 2: [0, 1, 3, 2], 3: [0, 1, 3, 2, 4, 5, 7, 6]}
_MFEM_GEOM_DIM = {1: 1, 3: 2, 5: 3}


@dataclass
class Mesh:
    """Zones as multilinear maps.

    corners: (Z, 2**dim, dim) float, tensor corner order.
    shape:   zones per axis for a generated structured box (None for unstructured meshes); zone
             (i0, i1, i2) is then zone i0 + n0*(i1 + n1*i2).
    """

    dim: int
    corners: np.ndarray
    shape: tuple | None = None

    @property
    def num_zones(self) -> int:
        return self.corners.shape[0]

    def map_points(self, xi: np.ndarray) -> np.ndarray:
        """Physical points of reference points ``xi`` (m, dim) in every zone: (Z, m, dim)."""
        phi = corner_shape(xi)  # (m, 2**dim)
        return np.einsum("mc,zcd->zmd", phi, self.corners)

    def zone_centers(self) -> np.ndarray:
        """(Z, dim) zone centres (image of the reference centre)."""
        return self.map_points(np.full((1, self.dim), 0.5))[:, 0, :]

    def refined(self, levels: int = 1) -> "Mesh":
        """Uniform refinement ``levels`` times (each zone -> 2**dim children, Laghos ``-rs``)."""
        mesh = self
        for _ in range(levels):
            mesh = mesh._refine_once()
        return mesh

    def _refine_once(self) -> "Mesh":
        dim = self.dim
        if self.shape is not None:
            # Structured: regenerate so that the zone ordering stays lexicographic.
            lo = self.corners[0, 0]
            hi = self.corners[-1, -1]
            return box(tuple(2 * n for n in self.shape), [(lo[d], hi[d]) for d in range(dim)])
        sub = basis.tensor_points(np.array([0.0, 0.5, 1.0]), dim).reshape((3,) * dim + (dim,))
        children = []
        for child in range(2 ** dim):
            c = [(child >> a) & 1 for a in range(dim)]
            pts = []
            for corner in range(2 ** dim):
                k = [c[a] + ((corner >> a) & 1) for a in range(dim)]
                # sub is indexed [i_{dim-1}, ..., i0]
                pts.append(sub[tuple(k[::-1])])
            xi = np.array(pts)
            children.append(self.map_points(xi))  # (Z, 2**dim, dim)
        corners = np.stack(children, axis=1).reshape(-1, 2 ** dim, dim)
        return Mesh(dim, corners, None)


def corner_shape(xi: np.ndarray) -> np.ndarray:
    """Multilinear corner shape functions at xi (m, dim): (m, 2**dim), tensor corner order."""
    m, dim = xi.shape
    out = np.ones((m, 1))
    for a in range(dim):
        f = np.stack([1.0 - xi[:, a], xi[:, a]], axis=1)
        out = (f[:, :, None] * out[:, None, :]).reshape(m, -1)
    return out


def box(n: tuple, extent) -> Mesh:
    """Generated Cartesian box with ``n`` zones per axis on ``extent`` [(lo, hi), ...]."""
    dim = len(n)
    axes = [np.linspace(float(extent[d][0]), float(extent[d][1]), n[d] + 1) for d in range(dim)]
    # zone lower-corner indices, axis 0 fastest
    idx = np.stack(np.meshgrid(*[np.arange(k) for k in n], indexing="ij"), axis=-1)
    idx = idx.transpose(tuple(range(dim))[::-1] + (dim,)).reshape(-1, dim)
    corners = np.empty((len(idx), 2 ** dim, dim))
    for corner in range(2 ** dim):
        for d in range(dim):
            corners[:, corner, d] = axes[d][idx[:, d] + ((corner >> d) & 1)]
    return Mesh(dim, corners, tuple(int(k) for k in n))


def read_mfem(path: str) -> Mesh:
    """Read an MFEM ASCII v1.0 mesh of segments, quads or hexes (linear geometry)."""
    with open(path) as f:
        lines = [ln.split("#")[0].strip() for ln in f]
    toks = [ln for ln in lines if ln]
    if not toks or not toks[0].startswith("MFEM mesh"):
        raise ValueError(f"{path}: not an MFEM mesh (first line {toks[:1]})")
    pos = toks.index("dimension")
    dim = int(toks[pos + 1])
    pos = toks.index("elements")
    ne = int(toks[pos + 1])
    elems = []
    for ln in toks[pos + 2: pos + 2 + ne]:
        vals = [int(v) for v in ln.split()]
        geom = vals[1]
        if _MFEM_GEOM_DIM.get(geom) != dim:
            raise ValueError(f"{path}: element geometry {geom} is not supported "
                             "(segments, quads and hexes only)")
        elems.append(vals[2:])
    elems = np.array(elems)[:, _MFEM_TO_TENSOR[dim]]
    pos = toks.index("vertices")
    nv = int(toks[pos + 1])
    if toks[pos + 2] == "nodes":
        fec = toks[pos + 4].split(":")[1].strip()
        # order-1 H1 nodes are the vertices, in vertex order
        if fec != "Linear" and not (fec.startswith("H1_") and fec.endswith("_P1")):
            raise ValueError(f"{path}: only linear mesh nodes are supported (curved meshes are "
                             f"not), got FiniteElementCollection {fec}")
        vdim = int(toks[pos + 5].split(":")[1])
        ordering = int(toks[pos + 6].split(":")[1])
        vals = np.array([float(v) for ln in toks[pos + 7:] for v in ln.split()])[: nv * vdim]
        coords = vals.reshape(vdim, nv).T if ordering == 0 else vals.reshape(nv, vdim)
    else:
        sdim = int(toks[pos + 2])
        coords = np.array([[float(v) for v in ln.split()] for ln in toks[pos + 3: pos + 3 + nv]])
        coords = coords[:, :sdim]
    return Mesh(dim, coords[elems][:, :, :dim].copy(), None)


def read_mesh(path: str) -> Mesh:
    """Read a mesh file: MFEM ASCII (``*.mesh``) or anything meshio reads (quads/hexes/lines)."""
    if str(path).endswith(".mesh"):
        return read_mfem(path)
    import meshio  # optional dependency

    m = meshio.read(path)
    for kind, dim, order in (("hexahedron", 3, _MFEM_TO_TENSOR[3]), ("quad", 2, _MFEM_TO_TENSOR[2]),
                             ("line", 1, _MFEM_TO_TENSOR[1])):
        cells = [c.data for c in m.cells if c.type == kind]
        if cells:
            conn = np.concatenate(cells)[:, order]
            return Mesh(dim, m.points[conn][:, :, :dim].copy(), None)
    raise ValueError(f"{path}: no line, quad or hexahedron cells")
