"""Amiibo figures: their 8-byte ids (`ids`), the built-in taxonomy
(`taxonomy`) and the figure catalogue kept in the store (`catalog`)."""

from companion.amiibo.ids import AmiiboError, AmiiboId, InvalidAmiiboId, decode, encode

__all__ = ["AmiiboError", "AmiiboId", "InvalidAmiiboId", "decode", "encode"]
