"""The JSON text the store writes and reads back, and the screens receive (companion.jsontext):
what orjson cannot write or read exactly goes through the standard library instead."""

import json
import math

from companion import jsontext


def test_values_orjson_refuses_or_would_round_come_back_exactly():
    # Bad inputs tried: integers beyond 64 bits either way, the most negative beyond them by one,
    # NaN and infinity as the standard library writes them, int keys, non-ASCII text.
    value = {"wide": 2**70, "negative": -(2**63) - 1, "u64": 2**64 - 1, "seat": {3: "é"}, "float": 0.1}
    text = jsontext.dumps(value)
    assert jsontext.loads(text) == {**value, "seat": {"3": "é"}}
    assert json.loads(text) == jsontext.loads(text)
    assert math.isnan(jsontext.loads(json.dumps([float("nan")]))[0])
    assert jsontext.loads(json.dumps([float("inf")])) == [math.inf]


def test_text_is_the_compact_json_the_standard_library_reads():
    value = {"state": {"rolls": [1, 6, 3], "names": ["Zoé"]}, "n": None, "ok": True}
    assert json.loads(jsontext.dumps(value)) == value
    assert " " not in jsontext.dumps(value)
