"""The layout cases of Arkade's screens (tests/layout_cases.py)."""

from __future__ import annotations

from tests.layout_cases import layout_test
from tests.layout_cases import pages, server, tables  # noqa: F401 (the module's fixtures)

test_layout = layout_test("arkade")
