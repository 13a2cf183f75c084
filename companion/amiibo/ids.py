"""The 8-byte amiibo id, read from pages 0x15–0x16 of an NTAG215 figure.

Written ``"0x"`` + 16 hexadecimal digits (input in any case, output in lower
case). Byte by byte, most significant first::

    bytes 0–1  game series (the top 10 bits) and character number (the low 6 bits);
               the 16 bits together are the character
    byte  2    character variant
    byte  3    figure type (0 figure, 1 card, 2 yarn, 3 band, 4 block)
    bytes 4–5  model number
    byte  6    amiibo series
    byte  7    format version, always 0x02

The AmiiboAPI database keys its lookup tables by hexadecimal digits of the id
rather than by fields: game series by the first 3 digits (the 10-bit game
series plus the top 2 bits of the character number, so one game series has up
to four keys), characters by the first 4, types by digits 7–8 and amiibo
series by digits 13–14. `AmiiboId` gives both the fields and those keys.

Pure: no Flask, no I/O. Errors carry an English msgid (``message``) with
``%(name)s`` fields (``params``) that the web shell translates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.base import N_

FORMAT_VERSION = 0x02
HEX_DIGITS = frozenset("0123456789abcdefABCDEF")

# Field name -> its width in bits, in the order the fields are laid out.
FIELD_BITS = {"game_series": 10, "character_number": 6, "variant": 8, "figure_type": 8,
              "model_number": 16, "amiibo_series": 8}


class AmiiboError(ValueError):
    """A refusal about amiibo data: ``message`` is an English msgid with
    ``%(name)s`` fields filled from ``params`` (see `companion.amiibo.locale`)."""

    def __init__(self, message: str, **params: Any):
        super().__init__(message % params if params else message)
        self.message = message
        self.params = params


class InvalidAmiiboId(AmiiboError):
    """A malformed amiibo id."""


@dataclass(frozen=True)
class AmiiboId:
    """The fields of an amiibo id. ``str(AmiiboId(...))`` is its canonical text."""

    game_series: int
    character_number: int
    variant: int = 0
    figure_type: int = 0
    model_number: int = 0
    amiibo_series: int = 0

    def __post_init__(self) -> None:
        for name, bits in FIELD_BITS.items():
            value = getattr(self, name)
            if type(value) is not int or not 0 <= value < (1 << bits):
                raise ValueError(f"{name} must be an integer from 0 to {(1 << bits) - 1}, not {value!r}")

    @classmethod
    def from_character(cls, character: int, **fields: int) -> "AmiiboId":
        """Builds an id from the 16-bit character (game series and number together)."""
        if type(character) is not int or not 0 <= character <= 0xFFFF:
            raise ValueError(f"character must be an integer from 0 to 65535, not {character!r}")
        return cls(game_series=character >> 6, character_number=character & 0x3F, **fields)

    @property
    def character(self) -> int:
        """The first 16 bits: the game series and the character number within it."""
        return self.game_series << 6 | self.character_number

    def to_bytes(self) -> bytes:
        return (self.character.to_bytes(2, "big") + bytes((self.variant, self.figure_type))
                + self.model_number.to_bytes(2, "big") + bytes((self.amiibo_series, FORMAT_VERSION)))

    def __str__(self) -> str:
        return "0x" + self.to_bytes().hex()

    # The AmiiboAPI's lookup keys ------------------------------------------
    @property
    def game_series_key(self) -> str:
        """The first 3 hexadecimal digits, the key of the AmiiboAPI's ``game_series``."""
        return f"0x{self.character >> 4:03x}"

    @property
    def character_key(self) -> str:
        """The first 4 hexadecimal digits, the key of the AmiiboAPI's ``characters``."""
        return f"0x{self.character:04x}"

    @property
    def type_key(self) -> str:
        """Digits 7–8 (byte 3), the key of the AmiiboAPI's ``types``."""
        return f"0x{self.figure_type:02x}"

    @property
    def amiibo_series_key(self) -> str:
        """Digits 13–14 (byte 6), the key of the AmiiboAPI's ``amiibo_series``."""
        return f"0x{self.amiibo_series:02x}"

    def fields(self) -> dict:
        """The decode as JSON: every field as a number."""
        return {"game_series": self.game_series, "character": self.character,
                "character_number": self.character_number, "variant": self.variant,
                "type": self.figure_type, "model_number": self.model_number,
                "amiibo_series": self.amiibo_series, "format_version": FORMAT_VERSION}


def game_series_keys(game_series: int) -> tuple[str, ...]:
    """The four AmiiboAPI ``game_series`` keys that share one 10-bit game series."""
    return tuple(f"0x{game_series << 2 | low:03x}" for low in range(4))


def decode(text: Any) -> AmiiboId:
    """Reads ``"0x"`` + 16 hexadecimal digits (any case, surrounding spaces ignored)."""
    if not isinstance(text, str):
        raise InvalidAmiiboId(N_("An amiibo id is written 0x followed by 16 hexadecimal digits."))
    text = text.strip()
    if text[:2] not in ("0x", "0X"):
        raise InvalidAmiiboId(N_("An amiibo id starts with 0x, followed by 16 hexadecimal digits."))
    digits = text[2:]
    wrong = next((char for char in digits if char not in HEX_DIGITS), None)
    if wrong is not None:
        raise InvalidAmiiboId(N_("An amiibo id has only hexadecimal digits (0-9, a-f) after 0x, not “%(char)s”."),
                              char=wrong)
    if len(digits) != 16:
        raise InvalidAmiiboId(N_("An amiibo id has 16 hexadecimal digits after 0x, not %(count)s."),
                              count=len(digits))
    return from_bytes(bytes.fromhex(digits))


def from_bytes(raw: bytes) -> AmiiboId:
    """Reads the 8 bytes as they are stored on the figure."""
    if len(raw) != 8:
        raise InvalidAmiiboId(N_("An amiibo id has 8 bytes, not %(count)s."), count=len(raw))
    if raw[7] != FORMAT_VERSION:
        raise InvalidAmiiboId(N_("An amiibo id ends with 02 (its format version), not %(byte)s."),
                              byte=f"{raw[7]:02x}")
    character = int.from_bytes(raw[0:2], "big")
    return AmiiboId(game_series=character >> 6, character_number=character & 0x3F, variant=raw[2],
                    figure_type=raw[3], model_number=int.from_bytes(raw[4:6], "big"), amiibo_series=raw[6])


def encode(amiibo_id: AmiiboId) -> str:
    """The canonical text of an id: ``"0x"`` + 16 lower-case hexadecimal digits."""
    return str(amiibo_id)


def normalize(text: Any) -> str:
    """The canonical text of a written id (raises `InvalidAmiiboId`)."""
    return encode(decode(text))
