"""GET /api/criteria, GET and PUT /api/rankings/<criterion>: figures ranked by
values from the fact tables and the catalogue, or by the house ranking, edited
with a table's token and remembered; bad requests refused with nothing changed."""

from __future__ import annotations

import pytest

from tests.helpers import bearer, new_table
from tests.test_amiibo_ids import load_amiiboapi

MARIO, BOWSER, PIKACHU = "0x0000000000000002", "0x0005000000140002", "0x1919000000090002"
PICHU, GOLDIE = "0x19ac000003850002", "0x02ea000101800502"  # Goldie, a villager card: no facts
FIGURES = [MARIO, BOWSER, PIKACHU, PICHU, GOLDIE]


@pytest.fixture
def catalog(app):
    full = load_amiiboapi()
    subset = {**full, "amiibos": {key: value for key, value in full["amiibos"].items() if key.lower() in FIGURES}}
    app.extensions["companion.catalog"].import_document(subset)
    return app.extensions["companion.catalog"]


def ranked_ids(body):
    return [[entry["id"] for entry in tier] for tier in body["tiers"]]


def test_the_criteria_and_references_in_both_languages(client):
    english = client.get("/api/criteria").json
    ids = [criterion["id"] for criterion in english["criteria"]]
    assert len(ids) >= 16 and "lightest" in ids
    book = next(reference for reference in english["references"] if reference["id"] == "book")
    assert [face["id"] for face in book["faces"]] == ["most_supports", "tallest", "shortest_name", "least_clothed",
                                                      "lightest", "farthest_from_start"]
    french = client.get("/api/criteria?lang=fr").json
    lightest = next(criterion for criterion in french["criteria"] if criterion["id"] == "lightest")
    assert lightest["wording"] == "Le plus léger"


def test_the_lightest_first_with_values_sources_and_the_unknown_last(client, catalog):
    body = client.get("/api/rankings/lightest?figures=" + ",".join(FIGURES)).json
    assert body["criterion"]["id"] == "lightest" and body["criterion"]["kind"] == "facts"
    assert ranked_ids(body) == [[PICHU], [PIKACHU], [MARIO], [BOWSER], [GOLDIE]]
    first = body["tiers"][0][0]
    assert first["value"] == 62 and first["source"] == "fact" and first["label"] == "Pichu"
    assert body["tiers"][-1][0]["value"] is None


def test_a_table_s_figures_are_ranked(client, catalog, tables):
    table = new_table(client, "dice", names=("Ana",))
    token = table["seats"]["Ana"]["token"]
    for amiibo_id in (BOWSER, MARIO):
        answer = client.post(f"/api/tables/{table['code']}/actions", json={"type": "figure.pick", "amiibo_id": amiibo_id},
                             headers=bearer(token))
        assert answer.status_code == 200, answer.json
    body = client.get(f"/api/rankings/heaviest?table={table['code']}").json
    assert ranked_ids(body) == [[BOWSER], [MARIO]]


def test_the_house_ranking_is_edited_with_a_table_token_and_remembered(client, catalog):
    unranked = client.get(f"/api/rankings/most_villainous?figures={MARIO},{BOWSER},{PIKACHU}").json
    assert unranked["criterion"]["kind"] == "judgement"
    for _ in range(2):  # two tables agree (one alone does not change the house ranking)
        table = new_table(client, "dice", names=("Ana",))
        for amiibo_id in (BOWSER, MARIO, PIKACHU):  # a table ranks only its own figures
            client.post(f"/api/tables/{table['code']}/actions", json={"type": "figure.pick", "amiibo_id": amiibo_id},
                        headers=bearer(table["seats"]["Ana"]["token"]))
        edit = {"table": table["code"], "tiers": [[BOWSER], [MARIO, PIKACHU]]}
        saved = client.put("/api/rankings/most_villainous", json=edit, headers=bearer(table["seats"]["Ana"]["token"]))
        assert saved.status_code == 200, saved.json
    again = client.get(f"/api/rankings/most_villainous?figures={PIKACHU},{MARIO},{BOWSER}").json
    assert ranked_ids(again) == [[BOWSER], [PIKACHU, MARIO]] or ranked_ids(again) == [[BOWSER], [MARIO, PIKACHU]]
    assert again["tiers"][0][0]["source"] == "house"


@pytest.mark.parametrize("request_kind, status, error", [
    ("unknown criterion", 400, "Unknown criterion: tastiest."),
    ("malformed id", 400, None),
    ("too many figures", 400, "At most 60 figures at a time."),
    ("unknown table", 404, "There is no table with the code ZZZZ."),
])
def test_bad_ranking_requests(client, catalog, request_kind, status, error):
    url = {"unknown criterion": "/api/rankings/tastiest?figures=" + MARIO,
           "malformed id": "/api/rankings/lightest?figures=0x12",
           "too many figures": "/api/rankings/lightest?figures=" + ",".join(f"0x{n:016x}" for n in range(61)),
           "unknown table": "/api/rankings/lightest?table=ZZZZ"}[request_kind]
    response = client.get(url)
    assert response.status_code == status and response.json["ok"] is False
    if error:
        assert response.json["error"] == error


@pytest.mark.parametrize("who, body, status", [
    ("nobody", {"tiers": [[MARIO], [BOWSER]]}, 401),  # no token: watching is not editing
    ("forged", {"tiers": [[MARIO], [BOWSER]]}, 401),
    ("seat", {"tiers": "Mario first"}, 400),  # malformed tiers
    ("seat", {"tiers": [[MARIO], ["0xnope"]]}, 400),
])
def test_bad_edits_change_nothing(client, catalog, who, body, status):
    table = new_table(client, "dice", names=("Ana",))
    headers = {"nobody": {}, "forged": bearer("f" * 32), "seat": bearer(table["seats"]["Ana"]["token"])}[who]
    before = client.get(f"/api/rankings/strongest?figures={MARIO},{BOWSER}").json
    response = client.put("/api/rankings/strongest", json={"table": table["code"], **body}, headers=headers)
    assert response.status_code == status and response.json["ok"] is False
    assert client.get(f"/api/rankings/strongest?figures={MARIO},{BOWSER}").json == before
