"""TRSM's recursion at mid batches, float32 against float64 (device probe): the backend's default
path, the recursion with its 32-row leaves and with tri_pair on its 64-row blocks (PAIR_RULES'
"nested" / RECURSION_PAIR_BLOCKS), the lean cuBLAS call (vendor.trsm) and
torch.linalg.solve_triangular; left lower N, n vectors, ms between CUDA events
(bench_cholesky.timeit, B reset before each call), and the tri_pair and vendor results' largest
difference from the leaves' result over its largest entry. (Calls 6-7 of reports/gpu_20261127d
ran it before RECURSION_PAIR_BLOCKS, without the "default" column: float32's default was then
the 32-leaves.)

    python3 scripts/probe_trsm_recursion.py [--sizes 128,256,512] [--batches 32,100,300,1000]
                                            [--dtypes float32,float64]
"""
import argparse
import sys
from pathlib import Path

import cupy
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_cholesky import spd_batch, timeit  # noqa: E402
from linalg._cuda import cholesky as gchol, triangular as gtri, vendor  # noqa: E402

try:
    import torch
except ImportError:
    torch = None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="128,256,512")
    parser.add_argument("--batches", default="32,100,300,1000")
    parser.add_argument("--dtypes", default="float32,float64")
    args = parser.parse_args(argv)
    rules, blocks = dict(gtri.PAIR_RULES), dict(gtri.RECURSION_PAIR_BLOCKS)
    print("| dtype | n | batch | default | 32-leaves | tri_pair blocks | vendor.trsm | torch | "
          "diff tri_pair / vendor |")
    print("|---|---|---|---|---|---|---|---|---|")
    for dtype in (numpy.dtype(d).type for d in args.dtypes.split(",")):
        name = numpy.dtype(dtype).name
        for n in (int(v) for v in args.sizes.split(",")):
            for batch in (int(v) for v in args.batches.split(",")):
                l, _ = gchol.potrf(spd_batch(batch, n, dtype), True)
                b = cupy.random.default_rng(2).standard_normal((batch, n, n)).astype(dtype)
                work = cupy.empty_like(b)
                reset = lambda: cupy.copyto(work, b)  # noqa: E731
                ours = lambda: gtri.trsm(l, work, "left", True, "N", False, 1.0)  # noqa: E731
                times, outs = [], []
                for setting in ("default", "leaves", "pair"):
                    if setting != "default":
                        gtri.RECURSION_PAIR_BLOCKS.pop(("trsm", name), None)
                        gtri.PAIR_RULES[("trsm", name)] = "nested" if setting == "pair" else None
                    times.append(timeit(ours, reset))
                    reset()
                    outs.append(ours()[0].copy())
                    gtri.PAIR_RULES.clear()
                    gtri.PAIR_RULES.update(rules)
                    gtri.RECURSION_PAIR_BLOCKS.update(blocks)
                times.append(timeit(lambda: vendor.trsm(l, work, False, True, False, False, 1.0),
                                    reset))
                reset()
                vendor.trsm(l, work, False, True, False, False, 1.0)
                outs.append(work.copy())
                if torch is not None:
                    tl, tb = torch.as_tensor(l, device="cuda"), torch.as_tensor(b, device="cuda")
                    times.append(timeit(lambda: torch.linalg.solve_triangular(tl, tb, upper=False)))
                else:
                    times.append(float("nan"))
                scale = float(abs(outs[1]).max())
                diffs = [float(abs(o - outs[1]).max()) / scale for o in (outs[2], outs[3])]
                print(f"| {name} | {n} | {batch} | " + " | ".join(f"{t:.3f}" for t in times)
                      + f" | {diffs[0]:.1e} / {diffs[1]:.1e} |", flush=True)


if __name__ == "__main__":
    main()
