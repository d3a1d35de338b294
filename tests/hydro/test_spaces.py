"""H1 / L2 spaces: numbering, boundary dofs, local restriction (hydro/spaces.py)."""
import numpy as np
import pytest

from hydro import basis, mesh as hmesh
from hydro.spaces import H1Space, L2Space, LocalH1


@pytest.mark.parametrize("dim,k", [(1, 2), (2, 1), (2, 2), (2, 3), (3, 2)])
def test_h1_dof_count_and_boundary(dim, k):
    n = 3
    m = hmesh.box((n,) * dim, [(0, 1)] * dim)
    ref = basis.ReferenceElement(dim, k, k - 1, 4 * k - 2)
    h1 = H1Space(m, ref)
    assert h1.num_dofs == (k * n + 1) ** dim
    # nodes are where the dof map says
    nodes = m.map_points(ref.h1_nodes)
    np.testing.assert_allclose(h1.node_coords[h1.dof_map], nodes, atol=1e-14)
    # essential dofs of component c: exactly the nodes on the planes x_c = 0 and x_c = 1
    for c in range(dim):
        on = np.nonzero((np.abs(h1.node_coords[:, c]) < 1e-12) | (np.abs(h1.node_coords[:, c] - 1) < 1e-12))[0]
        np.testing.assert_array_equal(h1.essential[c], on)
    assert L2Space(m.num_zones, ref).num_dofs == m.num_zones * k**dim


def test_local_restriction_covers_global():
    m = hmesh.box((4, 4), [(0, 1), (0, 1)])
    ref = basis.ReferenceElement(2, 2, 1, 6)
    h1 = H1Space(m, ref)
    a = LocalH1(h1, np.arange(8))
    b = LocalH1(h1, np.arange(8, 16))
    assert set(a.l2g) | set(b.l2g) == set(range(h1.num_dofs))
    assert len(set(a.l2g) & set(b.l2g)) == 9  # one shared row of a 4-zone-wide Q2 mesh
    np.testing.assert_array_equal(a.l2g[a.dof_map], h1.dof_map[:8])
