"""Meshes: generated boxes, refinement, the MFEM reader (hydro/mesh.py)."""
import numpy as np
import pytest

from hydro import mesh as hmesh

SQUARE01 = """MFEM mesh v1.0

dimension
2

elements
4
1 3 0 1 4 3
1 3 1 2 5 4
1 3 3 4 7 6
1 3 4 5 8 7

boundary
8
2 1 0 1
2 1 1 2
2 1 7 6
2 1 8 7
1 1 3 0
1 1 6 3
1 1 2 5
1 1 5 8

vertices
9

nodes
FiniteElementSpace
FiniteElementCollection: Linear
VDim: 2
Ordering: 0

0
0.5
1
0
0.5
1
0
0.5
1
0
0
0
0.5
0.5
0.5
1
1
1
"""

SEGMENT = """MFEM mesh v1.0
dimension
1
elements
2
1 1 0 1
1 1 1 2
boundary
2
1 0 0
1 0 2
vertices
3
1
0
0.5
1
"""


@pytest.mark.parametrize("dim", [1, 2, 3])
def test_box_and_refinement(dim):
    m = hmesh.box((2, 3, 4)[:dim], [(0, 1), (0, 2), (0, 3)][:dim])
    assert m.num_zones == np.prod((2, 3, 4)[:dim])
    r = m.refined(2)
    assert r.num_zones == m.num_zones * 4**dim
    vol = np.prod(np.ptp(r.corners, axis=1), axis=1).sum()
    assert vol == pytest.approx(np.prod([1, 2, 3][:dim]))


def test_box_corner_order_is_tensor():
    m = hmesh.box((2, 2), [(0, 1), (0, 1)])
    np.testing.assert_allclose(m.corners[0], [[0, 0], [0.5, 0], [0, 0.5], [0.5, 0.5]])
    np.testing.assert_allclose(m.corners[1, 0], [0.5, 0])   # x fastest
    np.testing.assert_allclose(m.corners[2, 0], [0, 0.5])


def test_read_mfem_square_and_refine_matches_box(tmp_path):
    p = tmp_path / "square01_quad.mesh"
    p.write_text(SQUARE01)
    m = hmesh.read_mfem(str(p))
    assert m.dim == 2 and m.num_zones == 4
    r = m.refined(3)
    b = hmesh.box((16, 16), [(0, 1), (0, 1)])
    np.testing.assert_allclose(np.sort(r.zone_centers(), axis=0), np.sort(b.zone_centers(), axis=0))
    # every refined zone is positively oriented (tensor order)
    J = r.corners[:, 1] - r.corners[:, 0], r.corners[:, 2] - r.corners[:, 0]
    assert (J[0][:, 0] * J[1][:, 1] - J[0][:, 1] * J[1][:, 0] > 0).all()


def test_read_mfem_segment_vertices_section(tmp_path):
    p = tmp_path / "segment01.mesh"
    p.write_text(SEGMENT)
    m = hmesh.read_mfem(str(p))
    assert m.dim == 1 and m.num_zones == 2
    np.testing.assert_allclose(m.refined(5).zone_centers()[:, 0].max(), 1 - 1 / 128)


def test_read_mfem_rejects_triangles(tmp_path):
    p = tmp_path / "tri.mesh"
    p.write_text(SQUARE01.replace("1 3 0 1 4 3", "1 2 0 1 4"))
    with pytest.raises(ValueError, match="geometry"):
        hmesh.read_mfem(str(p))
