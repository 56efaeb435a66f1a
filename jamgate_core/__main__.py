"""`python -m jamgate_core`: the `jamgate` command."""

import sys

from jamgate_core.cli import main

sys.exit(main())
