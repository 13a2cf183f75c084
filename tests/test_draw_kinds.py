"""Typed draw purposes: every draw of every game names a kind its game declared, with the fields it
declared (`companion.games.base.Draw`); the verify page (static/js/draw-kinds.js) and the CLI know the
same kinds, fields and sentences; a log from before typed purposes (prose) still verifies."""

from __future__ import annotations

import copy
import re

import pytest

from companion.games import REGISTRY
from companion.games.base import DRAW_KINDS, Draw
from companion.replay import draw_said
from companion.verify import verify_log
from tests.random_play import CONFIGS, play
from tests.server import ROOT
from tests.test_replay import logged_walk

SHIPPED = sorted(game_id for game_id, game in REGISTRY.items() if not game.setup.__module__.startswith("tests."))
# One kind a line: `  projectile_level: { fields: ['round', 'seat'], text: N_('…') },`
JS_KIND = re.compile(r"^  (\w+): \{ fields: \[(.*)\], text: N_\((['\"])(.*)\3\) \},$", re.MULTILINE)


def page_kinds() -> dict[str, tuple[tuple[str, ...], str]]:
    source = (ROOT / "static" / "js" / "draw-kinds.js").read_text(encoding="utf-8")
    return {kind: (tuple(re.findall(r"'(\w+)'", fields)), text) for kind, fields, _, text in JS_KIND.findall(source)}


@pytest.mark.parametrize("game_id", SHIPPED)
def test_every_draw_of_a_random_game_names_a_declared_kind_with_its_fields(game_id):
    """The harness checks each step's draws (`check_draw_kinds`); here, that the walk drew at all."""
    walk = play(REGISTRY[game_id], CONFIGS[game_id][0], 0)
    kinds = {draw["purpose"]["kind"] for draw in walk.rng.draws}
    assert kinds and all(DRAW_KINDS[kind].game == game_id for kind in kinds), kinds


def test_the_verify_page_and_the_cli_name_the_same_kinds_with_the_same_fields_and_sentences():
    shipped = {kind: (declared.fields, declared.sentence) for kind, declared in DRAW_KINDS.items()
               if declared.game in SHIPPED}
    assert {declared.game for declared in DRAW_KINDS.values()} >= set(SHIPPED)
    assert page_kinds() == shipped


def test_a_draw_of_an_undeclared_kind_or_with_other_fields_is_refused():
    with pytest.raises(ValueError, match="not declared"):
        Draw("no_such_kind").as_json()
    with pytest.raises(ValueError, match="fields"):
        Draw("projectile_level", round=1).as_json()
    assert Draw("projectile_level", round=3, seat=2).as_json() == {"kind": "projectile_level", "round": 3, "seat": 2}


def test_the_cli_says_a_draw_from_its_kind():
    assert draw_said({"kind": "projectile_level", "round": 3, "seat": 2}) == "projectile level, round 3, rolled for seat 2"
    assert draw_said({"kind": "projectile_level", "round": 1, "seat": None}) == \
        "projectile level, round 1, rolled for the table"
    assert draw_said("Boss level, round 1") == "Boss level, round 1"  # an older log's prose, as written


@pytest.mark.parametrize("game_id", ["rayman", "arkade"])
def test_a_log_from_before_typed_purposes_still_verifies_by_its_replay(game_id):
    """The purpose is not hashed (`fairness.draw_label`): a stored log whose draws are named in prose keeps
    its draws, its chains and its replay; only the game's event check, which matches kinds, is left to the
    replay, and the verifier says so."""
    log = logged_walk(game_id)
    prose = copy.deepcopy(log)
    for entry in prose["entries"]:
        if entry["kind"] == "draw":
            entry["purpose"] = draw_said(entry["purpose"])
    report = verify_log(prose)
    assert report.ok and report.replay == [], (report.problems + report.replay)[:3]
    assert report.draws_checked == verify_log(log).draws_checked > 0
    assert any("names its draws in prose" in note for note in report.notes)
    # A changed result is still caught: the draws are recomputed from the seed whatever their purpose.
    draw = next(entry for entry in prose["entries"] if entry["kind"] == "draw" and isinstance(entry["result"], int))
    draw["result"] += 1
    assert not verify_log(prose).ok
