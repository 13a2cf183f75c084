"""The bridge between the server's NFC reader and the tables, without the reader:
its callbacks are called as the reader thread would (the reader itself is tested
in tests/test_hardware_*)."""

from __future__ import annotations

import errno
import json
from types import SimpleNamespace

from hardware.reader import NOT_TYPE2, REMOVED_MID_READ, UNREADABLE, Said, describe_open_error, said_fields
from tests.helpers import new_table

UID = "04a1b2c3d4e5f6"
LUIGI = "0x0001000000010002"


def events(connection, name):
    return [m["args"][0] for m in connection.get_received() if m["name"] == name]


def test_a_tap_goes_to_the_table_on_the_newest_host_screen(app, client, socket_client):
    older, newer = new_table(client), new_table(client)
    socket_client(older["code"], older["host_token"])
    host = socket_client(newer["code"], newer["host_token"])
    host.get_received()
    bridge = app.extensions["companion.reader"]
    bridge.on_scan(SimpleNamespace(uid=UID, amiibo_id=LUIGI))
    pending = [v for v in events(host, "view")][-1]["table"]["figures"]["pending"]
    assert pending["amiibo_id"] == LUIGI and pending["uid"] == UID and pending["claim"]
    older_view = client.get(f"/api/tables/{older['code']}").json
    assert older_view["table"]["figures"]["pending"] is None


def test_reader_state_reaches_every_host_screen_and_new_ones(app, client, socket_client):
    table = new_table(client)
    host = socket_client(table["code"], table["host_token"])
    assert events(host, "reader") == [{"state": "off", "model": None, "text": None}]
    bridge = app.extensions["companion.reader"]
    bridge.on_status({"state": "connected", "model": "Sony RC-S380", "message": None, "said": None})
    assert events(host, "reader")[-1]["model"] == "Sony RC-S380"
    phone = socket_client(table["code"], table["seats"]["Ana"]["token"])
    # A phone learns whether a reader is there (it asks for taps only then), without the details.
    assert events(phone, "reader") == [{"state": "connected", "model": "Sony RC-S380"}]
    bridge.on_status({"state": "absent", "model": None, "message": "reader disconnected; no reader found at usb"})
    assert events(phone, "reader")[-1] == {"state": "absent", "model": None}
    bridge.on_status({"state": "absent", "model": None, "message": "no reader found at usb"})
    assert events(phone, "reader") == []  # a phone hears of a change of state only
    later = socket_client(table["code"], table["host_token"])
    assert events(later, "reader")[-1]["state"] == "absent"


def test_a_refused_tap_is_explained_on_the_host_screen_in_its_language(app, client, socket_client):
    table = new_table(client)
    client.post(f"/api/tables/{table['code']}/actions", json={"type": "table.joining", "open": False},
                headers={"Authorization": f"Bearer {table['host_token']}"})
    host = socket_client(table["code"], table["host_token"], **{"Accept-Language": "fr"})
    host.get_received()
    english = socket_client(table["code"], table["host_token"])  # a second host screen, in English
    app.extensions["companion.reader"].on_scan(SimpleNamespace(uid=UID, amiibo_id=LUIGI))
    told = events(host, "reader")[-1]
    assert told == events(english, "reader")[-1]  # one message; each screen shows its own language
    assert told["tap_texts"]["fr"].startswith("Personne n’ajoute de figurines")
    assert told["tap_texts"]["en"].startswith("Nobody is adding figures")
    assert told["tap_error"] == told["tap_texts"]["en"]  # the language of the screen opened last


def reader_line(event, **fields):
    """A line as the reader process writes it (hardware.reader run_events_mode)."""
    return json.dumps({"event": event, **fields})


def test_a_reader_error_reaches_each_host_screen_whole_in_its_language(app, client, socket_client):
    table = new_table(client)
    english = socket_client(table["code"], table["host_token"])
    french = socket_client(table["code"], table["host_token"], **{"Accept-Language": "fr"})
    busy = describe_open_error("usb:054c:06c3", OSError(errno.EIO, "Input/output error"))
    assert "Input/output error" in busy  # the raw driver error stays in the English log line
    app.extensions["companion.reader"]._dispatch(reader_line("status", state="error", model=None, message=busy,
                                                             said=said_fields(busy)))
    status = events(french, "reader")[-1]
    assert status == events(english, "reader")[-1] and set(status) == {"state", "model", "text"}
    assert status["text"] == {
        "en": "Cannot open the reader at usb:054c:06c3: check the device path and the cable.",
        "fr": "Impossible d’ouvrir le lecteur à usb:054c:06c3\u00a0: vérifiez le chemin du périphérique et le câble."}
    assert "Input/output" not in json.dumps(status)


def test_every_state_of_the_reader_has_its_french(app, client, socket_client):
    table = new_table(client)
    french = socket_client(table["code"], table["host_token"], **{"Accept-Language": "fr"})
    bridge = app.extensions["companion.reader"]
    said = [describe_open_error("usb", PermissionError(errno.EACCES, "denied")),
            describe_open_error("usb", OSError(errno.EBUSY, "busy")),
            Said("No reader found at %(path)s.", path="usb"),
            Said("Reader disconnected: no reader found at %(path)s.", detail="[Errno 19] No such device", path="usb")]
    for message in said:
        bridge.on_status({"state": "error", "model": None, "message": message, "said": said_fields(message)})
        text = events(french, "reader")[-1]["text"]
        assert text["fr"] and text["fr"] != text["en"] and "Errno" not in text["fr"], message
    bridge._dispatch(reader_line("status", state="off", model=None, message=None, said=None))
    assert events(french, "reader")[-1] == {"state": "off", "model": None, "text": None}


def test_a_tap_error_from_the_reader_and_a_tap_with_no_host_screen(app, client, socket_client):
    table = new_table(client)
    bridge = app.extensions["companion.reader"]
    bridge.on_scan(SimpleNamespace(uid=UID, amiibo_id=LUIGI))  # nobody to tell: nothing breaks
    host = socket_client(table["code"], table["host_token"])
    host.get_received()
    bridge.on_tap_error(said_fields(Said(REMOVED_MID_READ)))
    assert events(host, "reader")[-1]["tap_error"] == ("The figure was taken away before it could be read: place it "
                                                       "again and leave it on the reader for a moment.")
    french = socket_client(table["code"], table["host_token"], **{"Accept-Language": "fr"})
    french.get_received()
    card = Said(NOT_TYPE2, msgids=("kind",), kind="a MIFARE Classic card")
    bridge._dispatch(reader_line("error", message=card, said=said_fields(card)))
    assert events(french, "reader")[-1]["tap_error"] == (
        "Ce n’est pas un amiibo\u00a0: c’est une carte MIFARE Classic, pas une étiquette NFC Forum de type 2.")
    unreadable = Said(UNREADABLE, detail="TagCommandError: 0x0104")
    bridge._dispatch(reader_line("error", message=unreadable, said=said_fields(unreadable)))
    assert events(french, "reader")[-1]["tap_error"] == "L’étiquette n’a pas pu être lue\u00a0: posez-la à nouveau."


def test_a_malformed_line_from_the_reader_process_changes_nothing_or_reads_as_an_unreadable_tag(app, client,
                                                                                             socket_client):
    table = new_table(client)
    french = socket_client(table["code"], table["host_token"], **{"Accept-Language": "fr"})
    french.get_received()
    bridge = app.extensions["companion.reader"]
    for line in ("not json", "[1, 2]", json.dumps({"no": "event"})):
        bridge._dispatch(line)
    assert events(french, "reader") == []
    bridge._dispatch(reader_line("error", message="?", said={"msgid": 42, "params": "x"}))
    assert events(french, "reader")[-1]["tap_error"] == "L’étiquette n’a pas pu être lue\u00a0: posez-la à nouveau."
