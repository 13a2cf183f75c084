"""Addresses shown to players: the join link and its QR code."""

from __future__ import annotations

import io
from functools import lru_cache

import qrcode
import qrcode.image.svg
from flask import current_app, request, url_for

from companion import network


@lru_cache(maxsize=1)
def _lan_address() -> str | None:
    return network.pick_lan_address(*network.local_interfaces())


def public_base() -> str:
    return network.base_url(current_app.config["PUBLIC_URL"], request.url_root, _lan_address())


def join_url(code: str) -> str:
    return public_base() + url_for("pages.phone", code=code)


def seat_cookie_name(code: str) -> str:
    return f"companion_seat_{code}"


def qr_svg(text: str) -> bytes:
    """An SVG QR code (medium error correction survives a glare on the TV)."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4,
                         image_factory=qrcode.image.svg.SvgPathFillImage)
    code.add_data(text)
    code.make(fit=True)
    buffer = io.BytesIO()
    code.make_image().save(buffer)
    return buffer.getvalue()
