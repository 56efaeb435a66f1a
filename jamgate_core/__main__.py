"""`python -m jamgate_core`: the `jamgate` command."""

from jamgate_core.cli import main

raise SystemExit(main())
