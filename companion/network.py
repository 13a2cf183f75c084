"""The address phones use to reach this server on the local network."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

# Interfaces that phones on the table's Wi-Fi cannot reach.
VIRTUAL_PREFIXES = ("lo", "docker", "br-", "veth", "virbr", "tun", "tap", "wg", "zt", "tailscale")


def pick_lan_address(interfaces: dict[str, list[str]], up: set[str]) -> str | None:
    """The best IPv4 address for phones: a private address on a real, up interface.

    ``interfaces`` maps an interface name to its IPv4 addresses. Wi-Fi and
    Ethernet names come first, private ranges before others; loopback,
    link-local and virtual bridges are never chosen.
    """
    candidates = []
    for name, addresses in interfaces.items():
        if name not in up or name.startswith(VIRTUAL_PREFIXES):
            continue
        for text in addresses:
            address = ipaddress.ip_address(text)
            if address.is_loopback or address.is_link_local or address.is_multicast:
                continue
            physical = name.startswith(("wl", "en", "eth"))
            candidates.append((not address.is_private, not physical, name, text))
    return min(candidates)[3] if candidates else None


def local_interfaces() -> tuple[dict[str, list[str]], set[str]]:
    """This machine's interfaces and their IPv4 addresses (read, never probed)."""
    import socket

    import psutil

    addresses = {name: [a.address for a in entries if a.family == socket.AF_INET]
                 for name, entries in psutil.net_if_addrs().items()}
    up = {name for name, stats in psutil.net_if_stats().items() if stats.isup}
    return addresses, up


def is_loopback_host(hostname: str | None) -> bool:
    if not hostname or hostname == "localhost":
        return True
    try:
        return ipaddress.ip_address(hostname).is_loopback
    except ValueError:
        return False


def base_url(public_url: str, request_url_root: str, lan_address: str | None) -> str:
    """Where phones should go: the configured public URL, or what the host used,
    with a loopback host name replaced by the LAN address."""
    if public_url:
        return public_url.rstrip("/")
    parts = urlsplit(request_url_root)
    if is_loopback_host(parts.hostname) and lan_address:
        port = f":{parts.port}" if parts.port else ""
        return f"{parts.scheme}://{lan_address}{port}"
    return f"{parts.scheme}://{parts.netloc}"
