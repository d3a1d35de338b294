import sys, os, numpy, cupy
sys.path.insert(0, "tests/linalg"); sys.path.insert(0, ".")
from tests.linalg.helpers import rng, random_matrix, eps
from tests.linalg.test_gpu_bidiag import gebd2_reference
from linalg._cuda import bidiag
m = n = 257
for batch in (1, 3):
    g = rng(m * 1009 + n * 13 + batch)
    a = random_matrix(g, (batch, m, n), numpy.float32)
    nrec = min(batch, 3)
    ra, rd, re, rq, rp = gebd2_reference(a[:nrec])
    for name, params in (("default", None), ("fuse0", {"kernel": "blocked", "fuse": False}),
                         ("nb32", {"kernel": "blocked", "nb": 32})):
        out = [cupy.asnumpy(x).astype(numpy.float64) for x in bidiag.gebrd(cupy.asarray(a), _params=params)]
        err = numpy.abs(out[0][:nrec] - ra)
        idx = numpy.unravel_index(err.argmax(), err.shape)
        print(batch, name, bidiag.plan(m, n, numpy.float32, params), "max err", err.max(), "at", idx,
              "got", out[0][idx], "ref", ra[idx],
              "d err", numpy.abs(out[1][:nrec] - rd).max(), "e err", numpy.abs(out[2][:nrec] - re).max(),
              "tq err", numpy.abs(out[3][:nrec] - rq).max(), "tp err", numpy.abs(out[4][:nrec] - rp).max(), flush=True)
        big = numpy.argwhere(err > 0.01)
        print("   entries with err > 0.01:", len(big), big[:8].tolist(), flush=True)
