"""Downloading the current AmiiboAPI database, only when a user asks for it
(``flask --app app catalog sync``). The table itself never needs the internet."""

from __future__ import annotations

import http.client
import socket
import urllib.error
import urllib.request
from urllib.parse import urlsplit

from companion.amiibo.document import CatalogError
from companion.games.base import N_

DEFAULT_URL = "https://raw.githubusercontent.com/N3evin/AmiiboAPI/master/database/amiibo.json"
DEFAULT_TIMEOUT = 30.0
MAX_BYTES = 16 * 1024 * 1024


def download(url: str = DEFAULT_URL, timeout: float = DEFAULT_TIMEOUT, max_bytes: int = MAX_BYTES) -> bytes:
    """The body at ``url`` (http or https), or `CatalogError` saying why not."""
    if urlsplit(url).scheme not in ("http", "https") or not urlsplit(url).hostname:
        raise CatalogError(N_("Only http:// and https:// addresses can be synced from, not “%(url)s”."), url=url)
    request = urllib.request.Request(url, headers={"User-Agent": "Companion (amiibo catalogue sync)",
                                                   "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read(max_bytes + 1)
    except urllib.error.HTTPError as error:
        raise CatalogError(N_("%(url)s answered with the HTTP status %(status)s; nothing was changed."),
                           url=url, status=error.code) from None
    except (TimeoutError, socket.timeout):
        raise CatalogError(N_("%(url)s did not answer within %(seconds)s seconds. Is this machine online? "
                              "Nothing was changed."), url=url, seconds=f"{timeout:g}") from None
    except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
        reason = getattr(error, "reason", None) or error
        if isinstance(reason, (TimeoutError, socket.timeout)):
            raise CatalogError(N_("%(url)s did not answer within %(seconds)s seconds. Is this machine online? "
                                  "Nothing was changed."), url=url, seconds=f"{timeout:g}") from None
        raise CatalogError(N_("Could not reach %(url)s (%(reason)s). Is this machine online? Nothing was changed."),
                           url=url, reason=str(reason)) from None
    if len(body) > max_bytes:
        raise CatalogError(N_("The download from %(url)s is larger than %(count)s MiB; nothing was changed."),
                           url=url, count=max_bytes // (1024 * 1024))
    return body
