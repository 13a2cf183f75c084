"""The figure catalogue: import (idempotent, all or nothing), description of
known and unknown figures, names given by hosts, search."""

from __future__ import annotations

import copy
import json

import pytest

from companion.amiibo.catalog import Catalog, fold
from companion.amiibo.document import CatalogError
from companion.amiibo.ids import AmiiboError, InvalidAmiiboId
from companion.amiibo.locale import translate_error
from companion.store import Store
from tests.test_amiibo_ids import AMIIBOAPI, load_amiiboapi


def release(au=None, eu=None, jp=None, na=None) -> dict:
    return {"au": au, "eu": eu, "jp": jp, "na": na}


# A small document in the AmiiboAPI format, written for the tests.
SMALL = {
    "amiibos": {
        "0x0000000000990002": {"name": "Mario", "release": release("2014-11-29", "2014-11-28", "2014-12-06",
                                                                   "2014-11-21")},
        "0x0000000000980102": {"name": "Mario - Modern Colours", "release": release(eu="2015-09-11")},
        "0x0001000000010002": {"name": "Luigi", "release": release(na="2014-12-14")},
        "0x0199000101230502": {"name": "Renée", "release": release(jp="2016-03-01")},
        "0x01a5000102340502": {"name": "Étoile", "release": release(eu="2016-03-04")},
        "0x0181010100990502": {"name": "Isabelle - Snowy", "release": release()},
    },
    "amiibo_series": {"0x00": "Super Smash Bros.", "0x01": "Super Mario Bros.", "0x05": "Animal Crossing"},
    "game_series": {"0x000": "Super Mario", "0x001": "Super Mario", "0x018": "Animal Crossing",
                    "0x019": "Animal Crossing", "0x01a": "Animal Crossing"},
    "types": {"0x00": "Figure", "0x01": "Card"},
    "characters": {"0x0000": "Mario", "0x0001": "Luigi", "0x0199": "Renée", "0x01a5": "Étoile",
                   "0x0181": "Isabelle"},
}


def small() -> dict:
    return copy.deepcopy(SMALL)


@pytest.fixture
def store(tmp_path):
    store = Store(str(tmp_path / "catalog.sqlite3"))
    yield store
    store.close()


@pytest.fixture
def catalog(store):
    return Catalog(store)


def contents(store: Store) -> tuple:
    """Every row of the catalogue's tables, for proving that nothing changed."""
    with store.reading() as tx:
        return tuple(tuple(tuple(row) for row in tx.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3"))
                     for table in ("amiibo_figures", "amiibo_figure_names", "amiibo_lookup_names"))


def test_importing_twice_changes_nothing(catalog, store):
    first = catalog.import_document(small())
    assert first["amiibos"] == {"added": 6, "updated": 0, "unchanged": 0}
    assert first["characters"] == {"added": 5, "updated": 0, "unchanged": 0}
    before = contents(store)
    second = catalog.import_document(small())
    assert contents(store) == before
    assert all(section["added"] == section["updated"] == 0 for section in second.values())
    assert second["amiibos"]["unchanged"] == 6 and second["game_series"]["unchanged"] == 5


def test_the_whole_amiiboapi_imports_once(catalog, store):
    document = load_amiiboapi()
    counts = catalog.import_file(AMIIBOAPI)
    assert counts["amiibos"]["added"] == len(document["amiibos"])
    assert {kind: counts[kind]["added"] for kind in ("amiibo_series", "game_series", "types", "characters")} == {
        kind: len(document[kind]) for kind in ("amiibo_series", "game_series", "types", "characters")}
    before = contents(store)
    again = catalog.import_file(AMIIBOAPI)
    assert contents(store) == before
    assert again["amiibos"] == {"added": 0, "updated": 0, "unchanged": len(document["amiibos"])}
    for amiibo_id, entry in document["amiibos"].items():
        described = catalog.describe(amiibo_id, "en")
        assert described["known"] and described["name"] == entry["name"]
        assert described["release"] == entry["release"]
        assert described["character"]["name"] == document["characters"][amiibo_id[:6]]
        assert described["game_series"]["name"] == document["game_series"][amiibo_id[:5]]
        assert described["type"]["name"] == document["types"]["0x" + amiibo_id[8:10]]
        assert described["amiibo_series"]["name"] == document["amiibo_series"]["0x" + amiibo_id[14:16]]


def test_a_new_release_updates_what_changed(catalog):
    catalog.import_document(small())
    newer = small()
    newer["amiibos"]["0x0001000000010002"] = {"name": "Luigi", "release": release(na="2014-12-14", eu="2015-01-09")}
    newer["amiibos"]["0x0000000000990002"]["name"] = "Mario (Smash)"
    newer["amiibos"]["0x0003000000970002"] = {"name": "Yoshi", "release": release()}
    counts = catalog.import_document(newer)
    assert counts["amiibos"] == {"added": 1, "updated": 2, "unchanged": 4}
    assert catalog.describe("0x0001000000010002")["release"]["eu"] == "2015-01-09"
    assert catalog.describe("0x0000000000990002")["name"] == "Mario (Smash)"


def _bad(mutate):
    document = small()
    mutate(document)
    return document


MALFORMED = {
    "a list": ([SMALL], "JSON object with the keys"),
    "no amiibos": ({"characters": {}}, "JSON object with the keys"),
    "amiibos is a list": (_bad(lambda d: d.update(amiibos=[])), "“amiibos” should be a JSON object"),
    "no characters": (_bad(lambda d: d.pop("characters")), "“characters” should be a JSON object"),
    "short id": (_bad(lambda d: d["amiibos"].update({"0x00000000000002": SMALL["amiibos"]["0x0000000000990002"]})),
                 "“0x00000000000002” in “amiibos” is not an amiibo id: An amiibo id has 16 hexadecimal digits"),
    "id not ending in 02": (_bad(lambda d: d["amiibos"].update({"0x0000000000000003": {"name": "X",
                                                                                         "release": release()}})),
                            "ends with 02"),
    "month 13": (_bad(lambda d: d["amiibos"]["0x0001000000010002"]["release"].update(eu="2015-13-01")),
                 "invalid release date in eu: “2015-13-01”"),
    "day first": (_bad(lambda d: d["amiibos"]["0x0001000000010002"]["release"].update(na="14/12/2014")),
                  "invalid release date in na"),
    "date as a number": (_bad(lambda d: d["amiibos"]["0x0001000000010002"]["release"].update(jp=20141214)),
                         "invalid release date in jp"),
    "unknown region": (_bad(lambda d: d["amiibos"]["0x0001000000010002"]["release"].update(us="2014-12-14")),
                       "unknown release region “us”"),
    "no release": (_bad(lambda d: d["amiibos"]["0x0001000000010002"].pop("release")), "no release dates"),
    "empty name": (_bad(lambda d: d["amiibos"]["0x0001000000010002"].update(name="  ")), "has no name"),
    "figure is text": (_bad(lambda d: d["amiibos"].update({"0x0001000000010002": "Luigi"})),
                       "should be a JSON object with “name”"),
    "bad character key": (_bad(lambda d: d["characters"].update({"0x01": "Luigi"})),
                          "“0x01” in “characters” is not a key of 0x and 4 hexadecimal digits"),
    "series without a name": (_bad(lambda d: d["amiibo_series"].update({"0x02": None})),
                              "“0x02” in “amiibo_series” has no name"),
    "same id twice": (_bad(lambda d: d["amiibos"].update({"0X0000000000990002": {"name": "M", "release": {}}})),
                      "“0x0000000000990002” appears twice in “amiibos”"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_document_changes_nothing_and_says_why(catalog, store, case):
    catalog.import_document({**small(), "amiibos": {}})
    before = contents(store)
    document, message = MALFORMED[case]
    with pytest.raises(CatalogError) as refused:
        catalog.import_document(document)
    assert message in str(refused.value)
    assert contents(store) == before


@pytest.mark.parametrize("data, message, french", [
    (b"{\"amiibos\": {", "not valid JSON (line 1, column 14)", "pas du JSON valide (ligne 1, colonne 14)"),
    (b"", "not valid JSON", "pas du JSON valide"),
    (b"\xff\xfe\xfa", "not text in UTF-8", "pas du texte en UTF-8"),
    (b'{"amiibos": {}, "amiibos": {}}', "“amiibos” appears twice", "«\u00a0amiibos\u00a0» apparaît deux fois"),
    (json.dumps(_bad(lambda d: d["amiibos"]["0x0001000000010002"]["release"].update(eu="2015-02-30"))).encode(),
     "invalid release date in eu: “2015-02-30”", "date de sortie invalide en eu\u00a0: «\u00a02015-02-30\u00a0»"),
    (json.dumps(_bad(lambda d: d["amiibos"].update({"0x000000000000000z": {}}))).encode(),
     "is not an amiibo id: An amiibo id has only hexadecimal digits",
     "n’est pas un identifiant d’amiibo\u00a0: Un identifiant d’amiibo n’a que des chiffres hexadécimaux"),
])
def test_a_malformed_file_changes_nothing_and_says_why_in_english_and_french(catalog, store, data, message,
                                                                           french):
    catalog.import_document(small())
    before = contents(store)
    with pytest.raises(CatalogError) as refused:
        catalog.import_bytes(data)
    assert message in translate_error(refused.value, "en")
    assert french in translate_error(refused.value, "fr")
    assert contents(store) == before


def test_a_missing_file_is_reported(catalog, tmp_path):
    with pytest.raises(CatalogError, match="Could not read"):
        catalog.import_file(tmp_path / "nowhere.json")


def test_a_known_figure_is_described(catalog):
    catalog.import_document(small())
    described = catalog.describe("0X0199000101230502", "fr")
    assert described == {
        "id": "0x0199000101230502", "known": True, "name": "Renée", "name_source": "catalog", "label": "Renée",
        "decoded": {"game_series": 6, "character": 0x0199, "character_number": 25, "variant": 0, "type": 1,
                    "model_number": 0x0123, "amiibo_series": 5, "format_version": 2},
        "character": {"key": "0x0199", "name": "Renée"},
        "game_series": {"key": "0x019", "name": "Animal Crossing"},
        "amiibo_series": {"key": "0x05", "name": "Animal Crossing"},
        "type": {"key": "0x01", "name": "Carte"},  # the built-in French name beats the English catalogue
        "release": {"au": None, "eu": None, "jp": "2016-03-01", "na": None},
    }
    assert catalog.describe("0x0199000101230502", "en")["type"]["name"] == "Card"


def test_an_unknown_figure_shows_its_series_from_the_taxonomy(catalog):
    described = catalog.describe("0x3f00000000ff0002", "en")  # nothing imported at all
    assert described["known"] is False and described["name"] is None and described["release"] is None
    assert described["label"] == "Unknown figure #0x3f00000000ff0002 — Super Smash Bros. series"
    assert described["amiibo_series"] == {"key": "0x00", "name": "Super Smash Bros."}
    assert described["type"]["name"] == "Figure"
    french = catalog.describe("0x3f00000000ff0002", "fr")
    assert french["label"] == "Figurine inconnue n° 0x3f00000000ff0002 — série Super Smash Bros."
    assert french["type"]["name"] == "Figurine"
    # No amiibo series known: the game series; nothing known: the id alone.
    assert catalog.describe("0x1f00000001007f02", "en")["label"] == "Unknown figure #0x1f00000001007f02 — Kirby"
    assert catalog.describe("0xffc0000001007f02", "fr")["label"] == "Figurine inconnue n° 0xffc0000001007f02"


def test_an_unknown_figure_of_a_known_game_series_takes_the_catalogue_names(catalog):
    catalog.import_document(small())
    # Key 0x002 is not in the file, but 0x000 and 0x001 share its 10-bit game series.
    described = catalog.describe("0x0020000000990102", "en")
    assert described["known"] is False
    assert described["game_series"] == {"key": "0x002", "name": "Super Mario"}
    assert described["character"] == {"key": "0x0020", "name": None}
    assert described["label"] == "Unknown figure #0x0020000000990102 — Super Mario Bros. series"
    # A new variant of a known character.
    assert catalog.describe("0x0001010000990002")["character"]["name"] == "Luigi"


def test_a_name_given_by_a_host_is_remembered(catalog, tmp_path):
    unknown = "0x3f00000000ff0002"
    named = catalog.name_figure(unknown, "  Pingouin   masqué ", "fr")
    assert (named["name"], named["name_source"], named["known"]) == ("Pingouin masqué", "host", False)
    assert named["label"] == "Pingouin masqué"
    # Next time (another process on the same file), in French and, lacking English, in English too.
    again = Catalog(Store(catalog.store.path))
    assert again.describe(unknown, "fr")["name"] == "Pingouin masqué"
    assert again.describe(unknown, "en")["name"] == "Pingouin masqué"
    again.name_figure(unknown, "Masked Penguin", "en")
    assert again.describe(unknown, "en")["name"] == "Masked Penguin"
    assert again.describe(unknown, "fr")["name"] == "Pingouin masqué"
    assert again.figure_names(unknown) == {"name": {"en": "Masked Penguin", "fr": "Pingouin masqué"},
                                           "known": False}
    again.store.close()


def test_the_catalogue_name_comes_before_a_host_name(catalog):
    catalog.name_figure("0x0001000000010002", "Green Mario", "en")
    catalog.name_figure("0x0001000000010002", "Luigi (fr)", "fr")
    assert catalog.describe("0x0001000000010002", "en")["name"] == "Green Mario"
    catalog.import_document(small())
    assert catalog.describe("0x0001000000010002", "en")["name"] == "Luigi"
    assert catalog.describe("0x0001000000010002", "fr")["name"] == "Luigi (fr)"  # no French in the file
    assert catalog.figure_names("0x0001000000010002") == {"name": {"en": "Luigi", "fr": "Luigi (fr)"},
                                                          "known": True}


def test_a_french_catalogue_can_be_imported(catalog):
    catalog.import_document(small())
    french = small()
    french["amiibos"] = {"0x0181010100990502": {"name": "Marie - Hiver", "release": release()}}
    french["types"] = {"0x01": "Carte amiibo"}
    catalog.import_document(french, lang="fr")
    described = catalog.describe("0x0181010100990502", "fr")
    assert (described["name"], described["type"]["name"]) == ("Marie - Hiver", "Carte amiibo")
    assert catalog.describe("0x0181010100990502", "en")["name"] == "Isabelle - Snowy"


@pytest.mark.parametrize("amiibo_id, name, lang, error, message", [
    ("0x12", "X", "en", InvalidAmiiboId, "16 hexadecimal digits"),
    ("0x0001000000010002", "   ", "en", AmiiboError, "A figure's name is needed."),
    ("0x0001000000010002", None, "en", AmiiboError, "A figure's name is needed."),
    ("0x0001000000010002", "x" * 65, "en", AmiiboError, "at most 64 characters"),
    ("0x0001000000010002", "a\x07b", "en", AmiiboError, "control characters"),
    ("0x0001000000010002", "Luigi", "de", AmiiboError, "not “de”"),
])
def test_bad_names_are_refused(catalog, store, amiibo_id, name, lang, error, message):
    before = contents(store)
    with pytest.raises(error, match=message):
        catalog.name_figure(amiibo_id, name, lang)
    assert contents(store) == before


def names(results: list[dict]) -> list[str]:
    return [result["name"] for result in results]


def test_search_ignores_case_and_accents(catalog):
    catalog.import_document(small())
    assert names(catalog.search("renee")) == ["Renée"]
    assert names(catalog.search("RENÉE")) == ["Renée"]
    assert names(catalog.search("étoile")) == names(catalog.search("ETOILE")) == ["Étoile"]
    assert names(catalog.search("snowy isabelle")) == ["Isabelle - Snowy"]
    assert names(catalog.search("mario")) == ["Mario", "Mario - Modern Colours"]  # the whole name first
    assert names(catalog.search("mario", limit=1)) == ["Mario"]
    assert catalog.search("") == catalog.search("  ") == catalog.search("–") == catalog.search(None) == []
    assert catalog.search("wario") == []


def test_search_finds_french_and_host_names(catalog):
    catalog.import_document(small())
    catalog.name_figure("0x0181010100990502", "Marie (été)", "fr")
    catalog.name_figure("0x3f00000000ff0002", "Pingouin masqué", "fr")
    found = catalog.search("ETE", "fr")
    assert [(result["id"], result["name"]) for result in found] == [("0x0181010100990502", "Marie (été)")]
    assert names(catalog.search("Isabelle", "fr")) == ["Marie (été)"]  # found in English, shown in French
    assert names(catalog.search("masque", "en")) == ["Pingouin masqué"]
    unknown = catalog.search("pingouin", "en")[0]
    assert unknown["known"] is False and unknown["amiibo_series"]["name"] == "Super Smash Bros."


def test_search_by_id(catalog):
    catalog.import_document(small())
    assert names(catalog.search("0X0001000000010002")) == ["Luigi"]
    assert catalog.search("0x3f00000000ff0002")[0]["known"] is False


def test_fold():
    assert fold("  Tatsuhisa “Luke” Kamijō ") == "tatsuhisa luke kamijo"
    assert fold("Yoshi’s Woolly World") == fold("yoshis woolly world")
    assert fold("Œuf-Cœur") == "oeuf coeur"
