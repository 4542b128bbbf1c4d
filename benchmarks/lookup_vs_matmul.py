"""Time E[ids] against one_hot(ids) @ E as the vocabulary grows, and the lookup against a plain copy.

    .venv/bin/python benchmarks/lookup_vs_matmul.py              # single-threaded BLAS (the default)
    .venv/bin/python benchmarks/lookup_vs_matmul.py --threads 2  # let the matmul use 2 threads

Prints, for each V: the matmul's time (the one-hot matrix is built before the
clock starts), its achieved GFLOP/s, the lookup's time, and how many times
slower the matmul is. Then the lookup's bytes per second against np.copyto of
the same number of bytes. Figures vary with the machine and its load: the
fastest of --repeat runs is kept, because noise only ever adds time.
"""

import argparse
import os
import sys

# The BLAS library reads its thread count once, when numpy loads it, so the
# variables must be set before the first `import numpy` in this process.
parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("--threads", type=int, default=1, help="BLAS threads for the matmul (default 1)")
parser.add_argument("--d", type=int, default=768, help="row width d (default 768, GPT-2 small)")
parser.add_argument("--batch", type=int, default=512, help="ids per lookup (default 512)")
parser.add_argument("--repeat", type=int, default=3, help="runs per timing; the fastest is kept (default 3)")
args = parser.parse_args()
if "numpy" in sys.modules:
    raise SystemExit("numpy was imported before the thread count was set; run this file as a script")
for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = str(args.threads)

import numpy as np  # noqa: E402

from embedlab import best_time, blas_threads, lookup_bytes, matmul_flops, one_hot, one_hot_bytes  # noqa: E402

VOCAB_SIZES = [1_000, 2_000, 5_000, 10_000, 20_000, 30_000, 40_000, 50_257]  # 50,257: GPT-2's vocabulary


def main():
    d, batch = args.d, args.batch
    threads = blas_threads()
    print(f"BLAS threads: {threads if threads is not None else 'unknown (not an OpenBLAS numpy can ask)'}"
          f" (asked for {args.threads}); d = {d}, batch = {batch} ids, float32, best of {args.repeat}")
    rng = np.random.default_rng(0)
    E_full = rng.standard_normal((max(VOCAB_SIZES), d), dtype=np.float32)

    print(f"\n{'V':>7} {'matmul ms':>10} {'GFLOP/s':>8} {'lookup us':>10} {'matmul/lookup':>14} {'one-hot MB':>11}")
    for V in VOCAB_SIZES:
        E = E_full[:V]  # the first V rows: a view, no copy
        ids = rng.integers(0, V, size=batch)
        X = one_hot(ids, V, dtype=np.float32)
        assert np.array_equal(X @ E, E[ids])
        t_matmul = best_time(lambda: X @ E, repeat=args.repeat)
        t_lookup = best_time(lambda: E[ids], repeat=args.repeat, number=20)
        gflops = matmul_flops(V, d, batch) / t_matmul / 1e9
        print(f"{V:>7,} {t_matmul * 1e3:>10.2f} {gflops:>8.1f} {t_lookup * 1e6:>10.1f} "
              f"{t_matmul / t_lookup:>14.0f} {one_hot_bytes(V, batch) / 1e6:>11.1f}")

    # The lookup against the machine's copy speed: the same bytes out, from a gather vs one contiguous block.
    V = max(VOCAB_SIZES)
    ids = rng.integers(0, V, size=batch)
    out = np.empty((batch, d), dtype=np.float32)
    src = E_full[:batch].copy()  # a contiguous block of exactly the lookup's bytes
    n_bytes = lookup_bytes(d, batch, np.float32)
    assert out.nbytes == src.nbytes == n_bytes
    t_gather = best_time(lambda: np.take(E_full, ids, axis=0, out=out), repeat=args.repeat, number=50)
    t_copy = best_time(lambda: np.copyto(out, src), repeat=args.repeat, number=50)
    print(f"\nbytes written per call: {n_bytes:,} (batch x d x 4)")
    print(f"E[ids] from a V = {V:,} table: {n_bytes / t_gather / 1e9:.2f} GB/s")
    print(f"np.copyto of the same bytes:   {n_bytes / t_copy / 1e9:.2f} GB/s")
    print(f"lookup / copy throughput:      {t_copy / t_gather:.2f}")


if __name__ == "__main__":
    main()
