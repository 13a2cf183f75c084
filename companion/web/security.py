"""Headers every response carries, and the same-origin rule of the JSON API."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, request

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
])


def is_cross_origin() -> bool:
    """True when a browser sent this request from a page of another site."""
    origin = request.headers.get("Origin")
    if not origin or origin == "null":
        return origin == "null"
    parts = urlsplit(origin)
    return parts.netloc != request.host or parts.scheme != request.scheme


def install_security(app: Flask) -> None:
    @app.after_request
    def security_headers(response):
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response
