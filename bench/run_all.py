"""Run every benchmark in bench/ in turn (what `make bench` does); each prints its figures."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPTS = ["bench_build.py", "bench_dq.py", "bench_check.py", "bench_spark.py", "bench_models.py",
           "bench_site.py", "bench_slips.py", "bench_make.py"]


def main() -> int:
    failed = []
    for name in SCRIPTS:
        print(f"\n## {name}\n", flush=True)
        if subprocess.run([sys.executable, str(HERE / name)]).returncode != 0:
            failed.append(name)
    if failed:
        print("\nfailed or missed a target: " + ", ".join(failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
