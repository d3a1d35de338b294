"""Probe (call 7; extended for the next session): the GPU memory each sweep case holds. Runs the
cases of tests/linalg/test_sweep.py's draws (--seeds, --per-op an operation, --ops to pick
operations, in the order given) one after another in one process and records after each case
the memory pool's bytes (blocks the case allocated and freed stay in the pool until
free_all_blocks: about the case's high-water mark in the pool) and the device's used memory
(cudaMemGetInfo: also what is allocated outside the pool), the case's start time (to match a
memory sampler's timestamps), its duration and whether it passed. Prints each case above
--report GB as it comes, then the 25 largest."""
import argparse
import sys
import time
from pathlib import Path

import cupy

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from tests.linalg import test_sweep as sweep  # noqa: E402

GB = 2.0 ** 30


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--seeds", default="4,5,6,8")
    p.add_argument("--per-op", type=int, default=100)
    p.add_argument("--ops", default=",".join(sweep.OPS))
    p.add_argument("--report", type=float, default=8.0, help="print cases above this many GB")
    args = p.parse_args()
    ops = args.ops.split(",")
    pool = cupy.get_default_memory_pool()
    rows = []
    for seed in (int(s) for s in args.seeds.split(",")):
        cases = sweep.make_cases(args.per_op, sweep.GPU_ELEMENTS, seed)
        for case in sorted(cases, key=lambda c: ops.index(c.op) if c.op in ops else len(ops)):
            if case.op not in ops:
                continue
            start = time.time()
            try:
                sweep.run_case(cupy, case)
                status = "ok"
            except Exception as exc:                    # noqa: BLE001 (a probe: record it)
                status = f"{type(exc).__name__}: {str(exc)[:120]}"
            cupy.cuda.Device().synchronize()
            free, total = cupy.cuda.runtime.memGetInfo()
            row = (pool.total_bytes() / GB, (total - free) / GB, start, time.time() - start,
                   seed, sweep._case_id(case), status)
            rows.append(row)
            if max(row[0], row[1]) > args.report or status != "ok":
                print("big: pool %.2f GB, device %.2f GB, t %.2f, %.2f s, seed %d %s %s" % row,
                      flush=True)
            pool.free_all_blocks()
    rows.sort(key=lambda r: -max(r[0], r[1]))
    print("| pool GB | device GB | start | s | seed | case | status |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for row in rows[:25]:
        print("| %.2f | %.2f | %.2f | %.2f | %d | %s | %s |" % row)
    print(f"\n{len(rows)} cases, {sum(r[6] != 'ok' for r in rows)} not ok")


if __name__ == "__main__":
    main()
