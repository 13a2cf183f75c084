"""The views' wire format (companion/web/wire.py): encoded once, sent as encoded, the same JSON
a phone would have read before, in one process or through the queue between processes."""

from __future__ import annotations

import json

from companion.web.wire import PacketJSON, QueueJSON, Serialised, encode


def test_an_encoded_view_goes_into_the_packet_as_it_is():
    view = {"table": {"code": "ABCD"}, "game": {"last": {"seat": 1, "number": 3}}, "online": [1, 2]}
    packet = PacketJSON.dumps(["view", Serialised(encode(view))], separators=(",", ":"))
    assert json.loads(packet) == ["view", view]


def test_a_packet_without_an_encoded_payload_reads_as_the_standard_library_wrote_it():
    answer = {"ok": True, "events": [{"type": "rolled", "values": [4], "faces": ["4"]}], "name": "Zoé"}
    assert json.loads(PacketJSON.dumps([answer])) == [answer]


def test_seat_numbers_as_keys_and_numbers_wider_than_64_bits_encode_as_the_standard_library_does():
    assert json.loads(encode({1: "a", "2": "b"})) == {"1": "a", "2": "b"}
    huge = {"n": 2 ** 80}
    assert json.loads(encode(huge)) == huge


def test_an_encoded_view_crosses_the_queue_between_processes_still_encoded():
    body = Serialised(encode({"version": 7}))
    message = {"method": "emit", "event": "view", "data": [body], "room": ["ABCD/seat/1"], "host_id": "x"}
    received = QueueJSON.loads(QueueJSON.dumps(message))
    assert type(received["data"][-1]) is Serialised
    assert "serialised" not in received
    assert json.loads(PacketJSON.dumps(["view", received["data"][-1]])) == ["view", {"version": 7}]


def test_a_queue_message_without_an_encoded_payload_is_left_as_it_was():
    message = {"method": "emit", "event": "presence", "data": [{"online": [1]}], "host_id": "x"}
    assert QueueJSON.loads(QueueJSON.dumps(message)) == message


def test_a_queue_message_with_a_number_wider_than_64_bits_arrives_exact_as_text_or_bytes():
    """Redis hands the message over as bytes; a number orjson would read as a float, and NaN,
    which it refuses, come back as they were sent."""
    message = {"method": "emit", "data": ["presence", {"big": 2**70, "small": -(2**63) - 1, "nan": float("nan")}]}
    for sent in (QueueJSON.dumps(message), QueueJSON.dumps(message).encode()):
        payload = QueueJSON.loads(sent)["data"][1]
        assert payload["big"] == 2**70 and type(payload["big"]) is int
        assert payload["small"] == -(2**63) - 1 and type(payload["small"]) is int
        assert payload["nan"] != payload["nan"]  # NaN, read rather than refused
