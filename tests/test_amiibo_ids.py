"""Amiibo ids: decode and encode, checked on every figure of the shipped catalogue (generated from
the AmiiboAPI database by scripts/make_catalogue.py, so it holds the same figures) and on malformed ids."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.amiibo import taxonomy
from companion.amiibo.ids import (FIELD_BITS, AmiiboId, InvalidAmiiboId, decode, encode, from_bytes,
                                  game_series_keys, normalize)
from companion.amiibo.locale import translate_error
from companion.amiibo.shipped import SHIPPED, as_amiiboapi, is_shipped_format

# The repository's own data only: the tests read nothing beside the checkout.
AMIIBOAPI = SHIPPED
SOURCES = [SHIPPED]
# Lookup entries the catalogue (from the 2025-10-17 snapshot) lacks, per table: none.
EXPECTED_MISSING: dict[str, set[str]] = {"game_series": set(), "characters": set(), "types": set(),
                                         "amiibo_series": set()}


def load_amiiboapi(path=SHIPPED) -> dict:
    """A catalogue file as an AmiiboAPI document (the shipped one by default)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    return as_amiiboapi(document) if is_shipped_format(document) else document


@pytest.fixture(scope="module", params=SOURCES, ids=lambda path: path.name)
def amiiboapi(request) -> dict:
    return load_amiiboapi(request.param)


def test_an_id_decodes_field_by_field():
    card = decode("0x0437000102990502")
    assert card == AmiiboId(game_series=0x10, character_number=0x37, variant=0, figure_type=1,
                            model_number=0x0299, amiibo_series=5)
    assert card.character == 0x0437
    assert (card.game_series_key, card.character_key, card.type_key, card.amiibo_series_key) == (
        "0x043", "0x0437", "0x01", "0x05")
    assert card.fields() == {"game_series": 16, "character": 0x0437, "character_number": 55, "variant": 0,
                             "type": 1, "model_number": 0x0299, "amiibo_series": 5, "format_version": 2}
    assert encode(card) == "0x0437000102990502"
    assert card.to_bytes() == bytes.fromhex("0437000102990502")


def test_input_is_case_insensitive_and_output_lower_case():
    assert decode("0X0181010100990502") == decode("0x0181010100990502")
    assert normalize("  0x0181010100990502 ") == "0x0181010100990502"


def test_every_figure_of_the_amiiboapi_resolves_in_its_lookup_tables(amiiboapi):
    missing: dict[str, set[str]] = defaultdict(set)
    for text in amiiboapi["amiibos"]:
        parsed = decode(text)
        for table, key in (("game_series", parsed.game_series_key), ("characters", parsed.character_key),
                           ("types", parsed.type_key), ("amiibo_series", parsed.amiibo_series_key)):
            if key not in amiiboapi[table]:
                missing[table].add(text)
    for table, expected in EXPECTED_MISSING.items():
        assert missing.get(table, set()) == expected, f"{table}: ids whose key the file lacks"
    assert len(amiiboapi["amiibos"]) > 900


def test_every_figure_round_trips_and_matches_the_hexadecimal_digits(amiiboapi):
    for text in amiiboapi["amiibos"]:
        parsed = decode(text)
        assert encode(parsed) == text.lower()
        assert decode(text.upper().replace("0X", "0x")) == parsed
        digits = text[2:]
        # The AmiiboAPI's keys, read straight from the digits (1-based 1–3, 1–4, 7–8, 13–14).
        assert parsed.game_series_key == "0x" + digits[0:3]
        assert parsed.character_key == "0x" + digits[0:4]
        assert parsed.type_key == "0x" + digits[6:8]
        assert parsed.amiibo_series_key == "0x" + digits[12:14]
        assert (parsed.variant, parsed.model_number) == (int(digits[4:6], 16), int(digits[8:12], 16))
        assert parsed.game_series == int(digits[0:4], 16) >> 6
        assert parsed.character_number == int(digits[0:4], 16) & 0x3F
        assert digits[14:16] == "02"


def test_the_game_series_is_10_bits(amiiboapi):
    """The AmiiboAPI keys game series by 12 bits: each 10-bit game series has up
    to four keys, and all the keys of one game series carry the same name."""
    names: dict[int, set[str]] = defaultdict(set)
    for key, name in amiiboapi["game_series"].items():
        names[int(key, 16) >> 2].add(name)
        assert key in game_series_keys(int(key, 16) >> 2)
    assert {number: found for number, found in names.items() if len(found) > 1} == {}
    assert len(names) < len(amiiboapi["game_series"])  # e.g. Super Mario has 0x000, 0x001 and 0x002


def test_every_figure_type_of_the_file_is_in_the_taxonomy(amiiboapi):
    for key, name in amiiboapi["types"].items():
        assert taxonomy.figure_type_name(int(key, 16), "en") == name


def test_the_built_in_game_series_do_not_overlap():
    ranges = sorted((first, last) for first, last, _ in taxonomy.GAME_SERIES)
    for (_, last), (first, _) in zip(ranges, ranges[1:]):
        assert last < first
    assert all(0 <= first <= last < 1024 for first, last in ranges)
    assert taxonomy.game_series_name(0x0A, "fr") == "Animal Crossing"
    assert taxonomy.game_series_name(0x1E, "fr") == "Nintendo rétro"
    assert taxonomy.game_series_name(0x3FF) is None


@given(st.builds(AmiiboId, **{name: st.integers(0, (1 << bits) - 1) for name, bits in FIELD_BITS.items()}))
def test_decode_inverts_encode(parsed):
    text = encode(parsed)
    assert len(text) == 18 and text == text.lower() and text.endswith("02")
    assert decode(text) == parsed
    assert decode(text.upper()) == parsed
    assert AmiiboId.from_character(parsed.character, variant=parsed.variant, figure_type=parsed.figure_type,
                                   model_number=parsed.model_number, amiibo_series=parsed.amiibo_series) == parsed


@given(st.binary(min_size=7, max_size=7))
def test_encode_inverts_decode(head):
    text = "0x" + (head + b"\x02").hex()
    assert encode(decode(text)) == text
    assert from_bytes(head + b"\x02").to_bytes() == head + b"\x02"


@pytest.mark.parametrize("text, message, french", [
    ("", "starts with 0x", "commence par 0x"),
    ("0437000102990502", "starts with 0x", "commence par 0x"),
    ("0x", "not 0", "pas 0"),
    ("0x04380001030005", "not 14", "pas 14"),
    ("0x043700010299050200", "not 18", "pas 18"),
    ("0x04380001030005g2", "not “g”", "pas «\u00a0g\u00a0»"),
    ("0x0438 00010300050", "not “ ”", "pas «"),
    ("0x０438000103000502", "not “０”", "pas «\u00a0０\u00a0»"),
    ("0x0438000103000503", "not 03", "pas 03"),
    ("0x04380001030005ff", "not ff", "pas ff"),
    (None, "0x followed by 16", "0x suivi de 16"),
    (0x0437000102990502, "0x followed by 16", "0x suivi de 16"),
])
def test_malformed_ids_are_refused_with_a_translatable_message(text, message, french):
    with pytest.raises(InvalidAmiiboId) as refused:
        decode(text)
    assert message in translate_error(refused.value, "en")
    assert french in translate_error(refused.value, "fr")


def test_fields_out_of_range_are_refused():
    with pytest.raises(ValueError):
        AmiiboId(game_series=1024, character_number=0)
    with pytest.raises(ValueError):
        AmiiboId(game_series=0, character_number=64)
    with pytest.raises(ValueError):
        AmiiboId(game_series=0, character_number=0, model_number=0x10000)
    with pytest.raises(ValueError):
        AmiiboId.from_character(0x10000)
    with pytest.raises(InvalidAmiiboId):
        from_bytes(b"\x00" * 7)
