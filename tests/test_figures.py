"""Figures at a table: taps on the reader, "add my figures", claims by QR code,
picks from the catalogue, registration rules, and what each screen may see.

Bad inputs tried here: a malformed UID or amiibo id, a scan from a seat (only
the host or its reader may scan), a tap when nobody is adding figures, a
second seat starting to add while another is, a figure registered twice, a
figure over a game's limit, a duplicate figure in a one-of-each game, a stale
or forged claim, removing another seat's figure or one that does not exist,
adding figures after a lobby game started, and starting with unequal figures.
"""

from __future__ import annotations

import pytest

from companion.games.base import REGISTRY, Game, RegistrationRules
from tests.helpers import bearer, new_table, ENTROPY

MARIO = "0x0000000000340102"
LINK = "0x01000000034c0902"
PEACH = "0x0002000000350102"
UID_A, UID_B, UID_C = "04a1b2c3d4e5f6", "04a1b2c3d4e5f7", "04a1b2c3d4e5f8"


def act(client, table, who, action):
    token = table["host_token"] if who == "host" else table["seats"][who]["token"]
    return client.post(f"/api/tables/{table['code']}/actions", json=action, headers=bearer(token))


def scan(client, table, uid, amiibo_id):
    return act(client, table, "host", {"type": "table.scan", "uid": uid, "amiibo_id": amiibo_id})


def view(client, table, who):
    token = table["host_token"] if who == "host" else table["seats"][who]["token"]
    return client.get(f"/api/tables/{table['code']}", headers=bearer(token)).json


def figures_of(client, table, who="Ana"):
    return view(client, table, who)["table"]["figures"]


@pytest.fixture
def app_config():
    """These tests start from an empty catalogue (not the shipped one), as figures newer than it do."""
    return {"SHIPPED_CATALOGUE": None}


@pytest.fixture
def skirmish():
    """A lobby game with Amiiboxe's registration rules: one of each figure, 2 per player, equal counts."""
    REGISTRY["skirmish"] = Game(
        id="skirmish", title="Skirmish", min_seats=2, max_seats=4, options=(),
        setup=lambda options, seats, rng: {"figures": {str(s["id"]): [f["amiibo_id"] for f in s["figures"]]
                                                       for s in seats}, "taps": []},
        apply=lambda state, seat, action, rng: (state, []),
        view=lambda state, seat: state,
        registration=RegistrationRules(unique_figures=True, per_seat=2, equal_counts=True),
        figure_tapped=lambda state, figure, rng: ({**state, "taps": state["taps"] + [figure["id"]]},
                                                  [{"type": "identified", "figure": figure["id"]}]))
    yield
    del REGISTRY["skirmish"]


def test_adding_mode_sends_every_tap_to_that_seat_until_done(client):
    table = new_table(client)
    assert act(client, table, "Ana", {"type": "figure.adding", "on": True}).status_code == 200
    assert figures_of(client, table, "host")["registering"] == 1
    for uid, amiibo_id in [(UID_A, MARIO), (UID_B, LINK)]:
        assert scan(client, table, uid, amiibo_id).json["events"][0]["type"] == "figure_registered"
    assert act(client, table, "Ana", {"type": "figure.adding", "on": False}).status_code == 200
    record = figures_of(client, table, "Bo")
    assert [(f["seat"], f["uid"], f["amiibo_id"]) for f in record["list"]] == [(1, UID_A, MARIO), (1, UID_B, LINK)]
    assert record["registering"] is None
    # Not in the (empty) catalogue: the built-in taxonomy still says what it is.
    assert record["list"][0]["name"]["en"] == f"Unknown figure #{MARIO} — Super Mario Bros. series"
    assert record["list"][0]["known"] is False


def test_one_seat_adds_at_a_time(client):
    table = new_table(client)
    act(client, table, "Ana", {"type": "figure.adding", "on": True})
    refused = act(client, table, "Bo", {"type": "figure.adding", "on": True})
    assert refused.status_code == 400 and "Ana is adding figures" in refused.json["error"]


def test_a_registered_figure_tapped_again_is_identified(client):
    table = new_table(client)
    act(client, table, "Bo", {"type": "figure.adding", "on": True})
    scan(client, table, UID_A, MARIO)
    act(client, table, "Bo", {"type": "figure.adding", "on": False})
    tapped = scan(client, table, UID_A, MARIO).json["events"]
    assert tapped == [{"type": "figure_tapped", "figure": 1, "seat": 2, "uid": UID_A}]
    assert figures_of(client, table)["last_tap"]["seat"] == 2
    assert len(figures_of(client, table)["list"]) == 1


def test_two_copies_of_one_figure_are_told_apart_by_uid(client):
    table = new_table(client)
    for who, uid in [("Ana", UID_A), ("Bo", UID_B)]:
        act(client, table, who, {"type": "figure.adding", "on": True})
        scan(client, table, uid, MARIO)
        act(client, table, who, {"type": "figure.adding", "on": False})
    assert scan(client, table, UID_B, MARIO).json["events"][0]["seat"] == 2
    assert scan(client, table, UID_A, MARIO).json["events"][0]["seat"] == 1


def test_a_new_figure_waits_with_a_claim_only_the_host_screen_sees(client, socket_client):
    table = new_table(client)
    assert scan(client, table, UID_A, PEACH).json["events"] == [{"type": "figure_waiting", "amiibo_id": PEACH}]
    host = figures_of(client, table, "host")["pending"]
    assert host["amiibo_id"] == PEACH and len(host["claim"]) >= 16
    for who in ("Ana", "Bo"):
        assert "claim" not in figures_of(client, table, who)["pending"]
    spectator = socket_client(table["code"])
    assert host["claim"] not in repr(spectator.get_received())
    assert host["claim"] not in repr(client.get(f"/api/tables/{table['code']}/log").json)

    claimed = act(client, table, "Bo", {"type": "figure.claim", "claim": host["claim"]})
    assert claimed.status_code == 200
    record = figures_of(client, table, "host")
    assert record["pending"] is None and record["list"][0]["seat"] == 2 and record["list"][0]["uid"] == UID_A


def test_a_new_player_joins_then_claims_the_figure(client):
    table = new_table(client, names=())
    scan(client, table, UID_A, MARIO)
    claim = figures_of(client, table, "host")["pending"]["claim"]
    seat = client.post(f"/api/tables/{table['code']}/seats", json={"name": "Cy", "entropy": ENTROPY}).json
    table["seats"]["Cy"] = seat
    assert act(client, table, "Cy", {"type": "figure.claim", "claim": claim}).status_code == 200
    assert figures_of(client, table, "Cy")["list"][0]["seat"] == seat["seat"]


@pytest.mark.parametrize("claim", ["forged-claim", None, 12])
def test_a_forged_or_stale_claim_is_refused(client, claim):
    table = new_table(client)
    scan(client, table, UID_A, MARIO)
    refused = act(client, table, "Ana", {"type": "figure.claim", "claim": claim})
    assert refused.status_code == 400 and "no longer waiting" in refused.json["error"]
    assert figures_of(client, table)["list"] == []


def test_a_tap_with_joining_closed_and_nobody_adding_is_refused_clearly(client):
    table = new_table(client)
    act(client, table, "host", {"type": "table.joining", "open": False})
    refused = scan(client, table, UID_A, MARIO)
    assert refused.status_code == 400 and "Nobody is adding figures" in refused.json["error"]


@pytest.mark.parametrize("uid, amiibo_id, complaint", [
    ("04a1", MARIO, "UID"),
    (None, MARIO, "UID"),
    ("zz" * 7, MARIO, "UID"),
    (UID_A, "0x00000000003401", "amiibo id"),
    (UID_A, "0x0000000000340103", "amiibo id"),
    (UID_A, 42, "amiibo id"),
])
def test_malformed_scans_are_refused(client, uid, amiibo_id, complaint):
    table = new_table(client)
    refused = scan(client, table, uid, amiibo_id)
    assert refused.status_code == 400 and complaint in refused.json["error"]
    assert figures_of(client, table, "host")["pending"] is None


def test_only_the_host_or_its_reader_scans(client):
    table = new_table(client)
    refused = act(client, table, "Ana", {"type": "table.scan", "uid": UID_A, "amiibo_id": MARIO})
    assert refused.status_code == 403


def test_picking_from_the_catalogue_without_a_reader(client):
    table = new_table(client)
    picked = act(client, table, "Ana", {"type": "figure.pick", "amiibo_id": MARIO.upper().replace("0X", "0x")})
    assert picked.status_code == 200
    figure = figures_of(client, table)["list"][0]
    assert figure["uid"] is None and figure["amiibo_id"] == MARIO and figure["seat"] == 1
    # The physical figure tapped later is recognised as that pick.
    assert scan(client, table, UID_C, MARIO).json["events"][0]["type"] == "figure_tapped"


def test_owners_and_the_host_remove_figures_others_cannot(client):
    table = new_table(client)
    act(client, table, "Ana", {"type": "figure.pick", "amiibo_id": MARIO})
    act(client, table, "Bo", {"type": "figure.pick", "amiibo_id": LINK})
    refused = act(client, table, "Bo", {"type": "figure.remove", "figure": 1})
    assert refused.status_code == 400 and "own seat" in refused.json["error"]
    assert act(client, table, "Bo", {"type": "figure.remove", "figure": 99}).status_code == 400
    assert act(client, table, "Ana", {"type": "figure.remove", "figure": 1}).status_code == 200
    assert act(client, table, "host", {"type": "table.remove_figure", "figure": 2}).status_code == 200
    assert figures_of(client, table)["list"] == []


def test_a_removed_seat_takes_its_figures_away(client):
    table = new_table(client)
    act(client, table, "Bo", {"type": "figure.pick", "amiibo_id": LINK})
    act(client, table, "host", {"type": "table.remove", "seat": 2})
    assert figures_of(client, table)["list"] == []


def test_game_rules_on_registration_and_at_the_start(client, skirmish):
    table = new_table(client, game="skirmish")
    act(client, table, "Ana", {"type": "figure.pick", "amiibo_id": MARIO})
    duplicate = act(client, table, "Bo", {"type": "figure.pick", "amiibo_id": MARIO})
    assert duplicate.status_code == 400
    assert duplicate.json["error"] == f"Unknown figure #{MARIO} — Super Mario Bros. series is already in this game, with Ana."
    act(client, table, "Ana", {"type": "figure.pick", "amiibo_id": LINK})
    too_many = act(client, table, "Ana", {"type": "figure.pick", "amiibo_id": PEACH})
    assert too_many.status_code == 400 and "already has 2 figures" in too_many.json["error"]

    act(client, table, "Bo", {"type": "figure.pick", "amiibo_id": PEACH})
    unequal = act(client, table, "host", {"type": "table.start"})
    assert unequal.status_code == 400 and "Every player needs 2 figures; Bo has 1" in unequal.json["error"]

    act(client, table, "Bo", {"type": "figure.pick", "amiibo_id": "0x0003000000360102"})
    assert act(client, table, "host", {"type": "table.start"}).status_code == 200
    state = view(client, table, "Ana")["game"]
    assert state["figures"] == {"1": [MARIO, LINK], "2": [PEACH, "0x0003000000360102"]}

    late = act(client, table, "Bo", {"type": "figure.pick", "amiibo_id": "0x0004000000370102"})
    assert late.status_code == 409 and "started" in late.json["error"]


def test_a_tap_during_play_reaches_the_game(client, skirmish):
    table = new_table(client, game="skirmish")
    act(client, table, "Ana", {"type": "figure.adding", "on": True})
    scan(client, table, UID_A, MARIO)
    scan(client, table, UID_B, LINK)
    act(client, table, "Ana", {"type": "figure.adding", "on": False})
    for amiibo_id in (PEACH, "0x0003000000360102"):
        act(client, table, "Bo", {"type": "figure.pick", "amiibo_id": amiibo_id})
    act(client, table, "host", {"type": "table.start"})
    events = scan(client, table, UID_B, LINK).json["events"]
    assert events == [{"type": "figure_tapped", "figure": 2, "seat": 1, "uid": UID_B},
                      {"type": "identified", "figure": 2}]
    assert view(client, table, "Bo")["game"]["taps"] == [2]
    refused = scan(client, table, UID_C, "0x0004000000370102")
    assert refused.status_code == 400 and "can no longer be added" in refused.json["error"]


def test_a_catalogued_figure_registers_under_its_name(app, client):
    from tests.test_amiibo_catalog import small

    app.extensions["companion.catalog"].import_document(small())
    table = new_table(client)
    act(client, table, "Ana", {"type": "figure.pick", "amiibo_id": "0x0001000000010002"})
    figure = figures_of(client, table)["list"][0]
    assert figure["name"]["en"] == "Luigi" and figure["known"] is True


def test_the_host_names_an_unknown_figure_and_it_is_remembered_but_a_seat_cannot(client):
    table = new_table(client)
    act(client, table, "Ana", {"type": "figure.pick", "amiibo_id": PEACH})
    act(client, table, "Bo", {"type": "figure.pick", "amiibo_id": LINK})
    # The catalogue is every table's: a seat of a throwaway table does not rename figures in it.
    for seat, figure in (("Bo", 1), ("Ana", 1)):
        refused = act(client, table, seat, {"type": "figure.name", "figure": figure, "name": "Mine"})
        assert refused.status_code == 403 and "Only the host names figures" in refused.json["error"]
    named = act(client, table, "host", {"type": "table.name_figure", "figure": 1, "name": "Pêche dorée",
                                        "lang": "fr"})
    assert named.status_code == 200
    assert figures_of(client, table)["list"][0]["name"]["fr"] == "Pêche dorée"
    assert act(client, table, "host", {"type": "table.name_figure", "figure": 2, "name": "Hero of time"}
               ).status_code == 200
    assert figures_of(client, table)["list"][1]["name"]["en"] == "Hero of time"
    # Remembered: the next table that meets this figure knows its name.
    other = new_table(client)
    act(client, other, "Ana", {"type": "figure.pick", "amiibo_id": LINK})
    assert figures_of(client, other)["list"][0]["name"]["en"] == "Hero of time"
    assert client.get(f"/api/amiibo/{LINK}").json["name"] == "Hero of time"


@pytest.mark.parametrize("name, lang", [("", "en"), ("x" * 65, "en"), ("ok", "de"), (None, "en")])
def test_bad_figure_names_are_refused(client, name, lang):
    table = new_table(client)
    act(client, table, "Ana", {"type": "figure.pick", "amiibo_id": PEACH})
    refused = act(client, table, "host", {"type": "table.name_figure", "figure": 1, "name": name, "lang": lang})
    assert refused.status_code == 400 and refused.json["error"]
    assert figures_of(client, table)["list"][0]["name"]["en"].startswith("Unknown figure")
