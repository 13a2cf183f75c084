"""GET /api/amiibo/<id> and GET /api/amiibo?q=…: known and unknown figures,
malformed ids and searches, in English and French."""

from __future__ import annotations

import pytest

from tests.test_amiibo_catalog import small


@pytest.fixture
def app_config():
    """These tests start from an empty catalogue (not the shipped one), as figures newer than it do."""
    return {"SHIPPED_CATALOGUE": None}


@pytest.fixture
def catalog(app):
    catalog = app.extensions["companion.catalog"]
    catalog.import_document(small())
    return catalog


def test_a_known_figure(client, catalog):
    response = client.get("/api/amiibo/0X0181010100990502")
    assert response.status_code == 200
    body = response.json
    assert body["id"] == "0x0181010100990502" and body["known"] is True
    assert body["name"] == body["label"] == "Isabelle - Snowy"
    assert body["character"] == {"key": "0x0181", "name": "Isabelle"}
    assert body["game_series"] == {"key": "0x018", "name": "Animal Crossing"}
    assert body["amiibo_series"] == {"key": "0x05", "name": "Animal Crossing"}
    assert body["type"] == {"key": "0x01", "name": "Card"}
    assert body["release"] == {"au": None, "eu": None, "jp": None, "na": None}
    assert body["decoded"] == {"game_series": 6, "character": 0x181, "character_number": 1, "variant": 1,
                               "type": 1, "model_number": 0x99, "amiibo_series": 5, "format_version": 2}


def test_an_unknown_figure_in_english_and_french(client, catalog):
    english = client.get("/api/amiibo/0x3f00000000ff0002").json
    assert english["known"] is False and english["name"] is None and english["release"] is None
    assert english["label"] == "Unknown figure #0x3f00000000ff0002 — Super Smash Bros. series"
    assert english["type"]["name"] == "Figure"
    french = client.get("/api/amiibo/0x3f00000000ff0002", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).json
    assert french["label"] == "Figurine inconnue n° 0x3f00000000ff0002 — série Super Smash Bros."
    assert french["type"]["name"] == "Figurine"


def test_a_name_given_by_a_host_shows_next_time(client, catalog):
    catalog.name_figure("0x3f00000000ff0002", "Pingouin masqué", "fr")
    body = client.get("/api/amiibo/0x3f00000000ff0002?lang=fr").json
    assert (body["name"], body["name_source"], body["known"]) == ("Pingouin masqué", "host", False)


@pytest.mark.parametrize("amiibo_id, english, french", [
    ("0x12", "An amiibo id has 16 hexadecimal digits after 0x, not 2.",
     "Un identifiant d’amiibo a 16 chiffres hexadécimaux après 0x, pas 2."),
    ("0x0438000103000503", "An amiibo id ends with 02 (its format version), not 03.",
     "Un identifiant d’amiibo se termine par 02 (sa version de format), pas 03."),
    ("0x04380001030005zz", "An amiibo id has only hexadecimal digits (0-9, a-f) after 0x, not “z”.",
     "Un identifiant d’amiibo n’a que des chiffres hexadécimaux (0-9, a-f) après 0x, pas «\u00a0z\u00a0»."),
    ("0437000102990502", "An amiibo id starts with 0x, followed by 16 hexadecimal digits.",
     "Un identifiant d’amiibo commence par 0x, suivi de 16 chiffres hexadécimaux."),
])
def test_a_malformed_id_is_a_400_in_the_callers_language(client, amiibo_id, english, french):
    response = client.get(f"/api/amiibo/{amiibo_id}")
    assert response.status_code == 400
    assert response.json == {"ok": False, "error": english}
    response = client.get(f"/api/amiibo/{amiibo_id}?lang=fr")
    assert response.status_code == 400
    assert response.json == {"ok": False, "error": french}


def test_search(client, catalog):
    body = client.get("/api/amiibo?q=RENEE").json
    assert body["query"] == "RENEE"
    assert [result["id"] for result in body["results"]] == ["0x0199000101230502"]
    assert body["results"][0]["name"] == "Renée" and body["results"][0]["known"] is True
    marios = client.get("/api/amiibo?q=mario&limit=1").json["results"]
    assert [result["name"] for result in marios] == ["Mario"]
    assert client.get("/api/amiibo?q=").json == {"query": "", "results": []}
    assert client.get("/api/amiibo").json == {"query": "", "results": []}


def test_search_in_french_finds_host_names(client, catalog):
    catalog.name_figure("0x0181010100990502", "Marie (hiver)", "fr")
    results = client.get("/api/amiibo?q=marie&lang=fr").json["results"]
    assert [(result["name"], result["type"]["name"]) for result in results] == [("Marie (hiver)", "Carte")]
    results = client.get("/api/amiibo?q=isabelle", headers={"Accept-Language": "fr"}).json["results"]
    assert [result["name"] for result in results] == ["Marie (hiver)"]


@pytest.mark.parametrize("query, english, french", [
    ("q=mario&limit=0", "The limit is a whole number from 1 to 100.", "La limite est un nombre entier de 1 à 100."),
    ("q=mario&limit=101", "The limit is a whole number from 1 to 100.", "La limite est un nombre entier de 1 à 100."),
    ("q=mario&limit=ten", "The limit is a whole number from 1 to 100.", "La limite est un nombre entier de 1 à 100."),
    ("q=" + "a" * 101, "The search text has at most 100 characters.",
     "Le texte recherché a au plus 100 caractères."),
])
def test_a_bad_search_is_a_400(client, query, english, french):
    response = client.get("/api/amiibo?" + query)
    assert (response.status_code, response.json) == (400, {"ok": False, "error": english})
    response = client.get("/api/amiibo?lang=fr&" + query)
    assert (response.status_code, response.json) == (400, {"ok": False, "error": french})


def test_other_sites_are_refused(client):
    response = client.get("/api/amiibo/0x0000000000990002", headers={"Origin": "http://evil.example"})
    assert response.status_code == 403 and response.json["ok"] is False
    response = client.get("/api/amiibo?q=mario", headers={"Origin": "http://evil.example"})
    assert response.status_code == 403 and response.json["ok"] is False
