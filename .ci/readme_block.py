"""Print the command of one marked README block: `python3 .ci/readme_block.py run|test`."""

import re
import sys
from pathlib import Path

name = sys.argv[1]
readme = Path(__file__).resolve().parent.parent.joinpath("README.md").read_text()
found = re.search(rf"<!-- command:{name} -->\s*```(?:bash|sh)?\n(.*?)\n```", readme, re.S)
if not found:
    sys.exit(f"README.md has no block marked <!-- command:{name} -->")
print(found.group(1).strip())
