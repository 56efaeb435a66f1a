"""Store tests: the conformance suite's asserts get pytest's rewriting (it is imported by the
test modules before pytest would load it as a plugin).

`pytest_plugins` cannot be declared here (pytest refuses it in a non-root conftest), so the
modules that need pytester or the suite's plugin declare it themselves.
"""

from __future__ import annotations

import pytest

pytest.register_assert_rewrite("jamgate_core.testing")
