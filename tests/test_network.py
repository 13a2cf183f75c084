"""The join address: the LAN address phones can reach, never a virtual or loopback one."""

from __future__ import annotations

from companion.network import base_url, pick_lan_address


def test_wifi_private_address_wins_over_virtual_and_loopback():
    interfaces = {"lo": ["127.0.0.1"], "docker0": ["172.17.0.1"], "wlan0": ["192.168.1.23"],
                  "veth12": ["10.9.0.1"]}
    assert pick_lan_address(interfaces, up=set(interfaces)) == "192.168.1.23"


def test_down_interfaces_and_link_local_addresses_are_skipped():
    interfaces = {"eth0": ["169.254.3.4"], "wlan0": ["192.168.1.23"], "enp3s0": ["10.0.0.5"]}
    assert pick_lan_address(interfaces, up={"eth0", "enp3s0"}) == "10.0.0.5"


def test_private_before_public_and_physical_before_others():
    interfaces = {"eth0": ["93.184.216.34"], "usb0": ["192.168.7.2"], "wlan0": ["10.1.2.3"]}
    assert pick_lan_address(interfaces, up=set(interfaces)) == "10.1.2.3"


def test_no_usable_interface_gives_none():
    assert pick_lan_address({"lo": ["127.0.0.1"]}, up={"lo"}) is None


def test_base_url_replaces_loopback_with_the_lan_address():
    assert base_url("", "http://localhost:5000/", "192.168.1.23") == "http://192.168.1.23:5000"
    assert base_url("", "http://127.0.0.1:8080/", "192.168.1.23") == "http://192.168.1.23:8080"


def test_base_url_keeps_what_the_host_typed_and_the_override_wins():
    assert base_url("", "http://pi.local:5000/", "192.168.1.23") == "http://pi.local:5000"
    assert base_url("https://games.example/", "http://localhost:5000/", "192.168.1.23") == "https://games.example"
    assert base_url("", "http://localhost:5000/", None) == "http://localhost:5000"
