"""What goes on the wire to the screens: JSON encoded once, in C.

A publish encodes each distinct view once (`encode`), groups the rooms that get the same
bytes, and hands Socket.IO the encoded text as a `Serialised` payload, which the packet
encoder (`PacketJSON`, the JSON of `companion.TextPacket`) puts in as it is: a view goes
through one encoder once, whatever the number of screens that receive it.
"""

from __future__ import annotations

import re
from typing import Any

from engineio import json as engineio_json

from companion import jsontext


class Serialised(str):
    """A payload already encoded as JSON text (see `encode`)."""

    __slots__ = ()


def encode(value: Any) -> str:
    """JSON text of ``value`` (`companion.jsontext.dumps`)."""
    return jsontext.dumps(value)


class TooDeep:
    """The data of an event whose JSON nests deeper than the decoder goes: the handler answers it."""

    __slots__ = ()


TOO_DEEP = TooDeep()
EVENT_NAME = re.compile(r'\[\s*"([A-Za-z_]{1,40})"\s*,')


class PacketJSON:
    """The JSON module of Socket.IO packets: a `Serialised` last argument goes in as it is,
    the rest is encoded by `encode`; what the phones send is read by engineio's own decoder
    (it refuses numbers of absurd length)."""

    @staticmethod
    def loads(text: str) -> Any:
        """An event nested too deep for the decoder still reaches its handler, as `TOO_DEEP`, so
        that the phone gets an answer (a dropped packet left its call waiting for one forever)."""
        try:
            return engineio_json.loads(text)
        except RecursionError:
            name = EVENT_NAME.match(text)
            if name is None:
                raise ValueError("JSON nested too deeply") from None
            return [name.group(1), TOO_DEEP]

    @staticmethod
    def dumps(data: Any, **_options: Any) -> str:
        if type(data) is list and data and type(data[-1]) is Serialised:
            head = encode(data[:-1])  # ["view"]: the event's name
            return head[:-1] + ("," if len(data) > 1 else "") + data[-1] + "]"
        return encode(data)


class QueueJSON:
    """The JSON of the messages between processes (the Redis queue): an emit's `Serialised`
    payload is marked, so that the process that delivers it sends it as it is too, not as
    a JSON string. Only Companion's own processes write to the queue."""

    @staticmethod
    def dumps(message: Any, **_options: Any) -> str:
        data = message.get("data") if isinstance(message, dict) else None
        if type(data) is list and data and type(data[-1]) is Serialised:
            message = {**message, "serialised": True}
        return encode(message)

    @staticmethod
    def loads(text: str | bytes) -> Any:
        # As the store reads: a number wider than 64 bits comes back exact, NaN is read too.
        message = jsontext.loads(text.decode() if isinstance(text, bytes) else text)
        if isinstance(message, dict) and message.pop("serialised", False):
            message["data"][-1] = Serialised(message["data"][-1])
        return message
