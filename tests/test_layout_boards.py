"""The layout cases of the board games' screens, Chakart and Mario Universalis (tests/layout_cases.py)."""

from __future__ import annotations

from tests.layout_cases import layout_test, named_swatches_test
from tests.layout_cases import pages, server, tables  # noqa: F401 (the module's fixtures)

test_layout = layout_test("boards")
test_colour_is_never_the_only_way_a_seat_is_told_apart = named_swatches_test("boards")
