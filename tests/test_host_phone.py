"""The host can be a phone: every host action from the seat that holds the host's rights, and a TV
paired with a table by the short code it shows (companion/displays.py).

On the real server, over Socket.IO and HTTP. Each host action and the pairing are also sent with
another seat's token, a forged token and another table's host key: each is refused and changes
nothing."""

from __future__ import annotations

import requests

from companion.tables import HOST_ACTIONS
from tests.helpers import ENTROPY, bearer
from tests.screen import WAIT, Screen
from tests.server import ServerProcess, server_fixture

BOWSER, LINK, UNKNOWN = "0x0005000000140002", "0x0100000000040002", "0x3f00000000ff0002"
UID = "04a1b2c3d4e5f6"


NO_PAIR_WAIT = {"COMPANION_PAIR_WAIT": "0"}


# A TV shows the one table that asked at once (the wait before it does is tried on its own below). A seat
# refused again and again is held past half its burst (SeatRefusals): this module's seat tries each of the
# 19 host actions in a row, so its burst is large (tests/test_flood_seats.py tries the budget).
server = server_fixture("host-phone", {**NO_PAIR_WAIT, "COMPANION_RATE_BURST": "100"})


class HostedByPhone:
    """An Amiiboxe lobby created on Ana's phone: she holds the host's rights on her seat; Bo is a player."""

    def __init__(self, server):
        self.url = server.url
        created = requests.post(f"{self.url}/api/tables", json={"game": "amiiboxe",
                                                                "options": {"figures_per_player": 3}}, timeout=WAIT)
        self.code, self.host_key = created.json()["code"], created.json()["host_token"]
        self.ana = self.join("Ana", host_key=self.host_key)
        self.bo = self.join("Bo")

    def join(self, name: str, host_key: str | None = None) -> dict:
        seat = requests.post(f"{self.url}/api/tables/{self.code}/seats", json={"name": name, "entropy": ENTROPY},
                             headers=bearer(host_key) if host_key else {}, timeout=WAIT)
        assert seat.status_code == 201, seat.text
        return seat.json()

    def http(self, token: str, action: dict) -> requests.Response:
        return requests.post(f"{self.url}/api/tables/{self.code}/actions", json=action, headers=bearer(token),
                             timeout=WAIT)

    def pair(self, token: str, pairing, current: str | None = None) -> requests.Response:
        return requests.post(f"{self.url}/api/tables/{self.code}/display",
                             json={"pairing": pairing, **({"current": current} if current else {})},
                             headers=bearer(token), timeout=WAIT)

    def view(self) -> dict:
        return requests.get(f"{self.url}/api/tables/{self.code}", headers=bearer(self.host_key), timeout=WAIT).json()

    def figures_of(self, view: dict, seat: dict) -> list[str]:
        return [figure["name"]["en"] for figure in view["table"]["figures"]["list"] if figure["seat"] == seat["seat"]]


def new_display(server) -> dict:
    answer = requests.post(f"{server.url}/api/displays", timeout=WAIT)
    assert answer.status_code == 201, answer.text
    return answer.json()


def display_status(server, display: dict) -> dict:
    return requests.get(f"{server.url}/api/displays/mine", headers=bearer(display["key"]), timeout=WAIT).json()


def test_the_host_phone_adds_gives_names_and_removes_the_figures_of_any_seat(server):
    table = HostedByPhone(server)
    ana = Screen(table.url, table.code, table.ana["token"])
    bo = Screen(table.url, table.code, table.bo["token"])
    try:
        # A figure picked by name for Bo, from Ana's phone.
        ana.play({"type": "table.pick_figure", "seat": table.bo["seat"], "amiibo_id": BOWSER})
        # A figure tapped on the reader while nobody adds waits; Ana gives it to Bo.
        assert table.http(table.host_key, {"type": "table.scan", "uid": UID, "amiibo_id": LINK}).status_code == 200
        waiting = ana.wait_for(lambda view: view["table"]["figures"]["pending"] is not None)
        assert "claim" not in waiting["table"]["figures"]["pending"]  # the claim stays the host screen's
        ana.play({"type": "table.give_figure", "seat": table.bo["seat"]})
        # Bo adds a figure the catalogue does not know; Ana names it for every table of the server.
        mystery = bo.play({"type": "figure.pick", "amiibo_id": UNKNOWN})["events"][0]["figure"]["id"]
        ana.play({"type": "table.name_figure", "figure": mystery, "name": "Pingouin masqué", "lang": "en"})
        seen = bo.wait_for(lambda view: "Pingouin masqué" in table.figures_of(view, table.bo))
        assert table.figures_of(seen, table.bo) == ["Bowser", "Link", "Pingouin masqué"]
        assert seen["table"]["figures"]["pending"] is None
        # And removes one of Bo's.
        bowser = next(f["id"] for f in seen["table"]["figures"]["list"] if f["amiibo_id"] == BOWSER)
        ana.play({"type": "table.remove_figure", "figure": bowser})
        assert table.figures_of(bo.wait_for(lambda view: len(table.figures_of(view, table.bo)) == 2),
                                table.bo) == ["Link", "Pingouin masqué"]
    finally:
        ana.close()
        bo.close()


def test_a_seat_without_the_host_rights_is_refused_each_host_action_and_nothing_changes(server):
    table = HostedByPhone(server)
    other = requests.post(f"{server.url}/api/tables", json={"game": "dice"}, timeout=WAIT).json()
    table.http(table.host_key, {"type": "table.pick_figure", "seat": table.ana["seat"], "amiibo_id": BOWSER})
    table.http(table.host_key, {"type": "table.scan", "uid": UID, "amiibo_id": LINK})
    figure = table.view()["table"]["figures"]["list"][0]["id"]
    ana, bo_seat = table.ana["seat"], table.bo["seat"]
    # Every host action, each as the host's phone would send it.
    payloads = {
        "table.pick_figure": {"seat": bo_seat, "amiibo_id": UNKNOWN},
        "table.give_figure": {"seat": bo_seat},
        "table.remove_figure": {"figure": figure},
        "table.name_figure": {"figure": figure, "name": "Faux"},
        "table.scan": {"uid": "04a1b2c3d4e5f7", "amiibo_id": UNKNOWN},
        "table.entropy_restart": {},
        "table.joining": {"open": False},
        "table.rename": {"seat": ana, "name": "Faux"},
        "table.remove": {"seat": ana},
        "table.start": {},
        "table.close": {},
        "table.again": {},
        "table.another": {"game": "dice", "options": {}},
        "table.handoff": {"seat": ana},
        "table.decide": {"seat": ana, "action": {"type": "end_turn"}},
        "table.stop_waiting": {"seat": ana},
        "table.withdraw": {"seat": ana},
        "table.give_host": {"seat": bo_seat},
        "table.undo": {"seat": ana},
    }
    assert set(payloads) == HOST_ACTIONS  # a new host action is tried here too
    actions = [{"type": kind, **payload} for kind, payload in payloads.items()]
    before = table.view()
    bo = Screen(table.url, table.code, table.bo["token"])
    try:
        for action in actions:
            # Another seat's token, over HTTP and over its socket: only the host may.
            assert table.http(table.bo["token"], action).status_code == 403, action
            assert bo.act(action) == {"ok": False, "error": "Only the host can do that.", "status": 403}
            # A forged token, and the host key of another table.
            assert table.http("forged-" + table.ana["token"], action).status_code == 401, action
            assert table.http(other["host_token"], action).status_code == 401, action
    finally:
        bo.close()
    after = table.view()
    assert {**after, "time": None} == {**before, "time": None}  # the view's clock moves on, nothing else
    # The same action from the phone holding the host's rights is taken.
    assert table.http(table.ana["token"], {"type": "table.joining", "open": False}).status_code == 200
    assert table.view()["table"]["joining_open"] is False


def test_a_tv_is_paired_by_the_host_phone_and_bad_codes_or_tokens_change_nothing(server):
    table = HostedByPhone(server)
    display = new_display(server)
    assert len(display["code"]) == 6 and display["pair_url"].endswith(f"/pair/{display['code']}")
    assert display_status(server, display)["state"] == "waiting"
    closed = HostedByPhone(server)
    requests.post(f"{server.url}/api/tables/{closed.code}/close", headers=bearer(closed.host_key), timeout=WAIT)
    wrong = "Z" * 6 if display["code"] != "Z" * 6 else "Y" * 6
    refusals = [
        (table.pair(table.bo["token"], display["code"]), 403, "Only the host"),  # a seat without the rights
        (table.pair("forged", display["code"]), 401, "not valid"),
        (table.pair(closed.host_key, display["code"]), 401, "not valid"),  # another table's host key
        (closed.pair(closed.ana["token"], display["code"]), 410, "closed"),  # a closed table's host
        (table.pair(table.ana["token"], wrong), 404, f"No screen shows the code {wrong}"),
        (table.pair(table.ana["token"], "AB12"), 400, "6 letters and digits"),
        (table.pair(table.ana["token"], {"code": display["code"]}), 400, "6 letters and digits"),
        (requests.post(f"{server.url}/api/tables/{table.code}/display", data="ABCDEF", timeout=WAIT,
                       headers=bearer(table.ana["token"])), 400, "JSON object"),
    ]
    for answer, status, message in refusals:
        assert answer.status_code == status, answer.text
        assert message in answer.json()["error"]
    assert display_status(server, display)["state"] == "waiting"  # none of them paired the TV

    # The code as typed: any case, spaces ignored.
    spaced = f" {display['code'][:3].lower()} {display['code'][3:]} "
    assert table.pair(table.ana["token"], spaced).json() == {"ok": True, "table": table.code, "state": "paired"}
    assert display_status(server, display) == {"state": "paired", "table": table.code, "host": "Ana",
                                               "url": f"/t/{table.code}/screen"}
    # Sent again by the same table's host key: nothing changes, the TV keeps its table.
    again = table.pair(table.host_key, display["code"])
    assert again.status_code == 200 and display_status(server, display)["table"] == table.code
    # A key the server never gave is refused.
    assert requests.get(f"{server.url}/api/displays/mine", headers=bearer("forged"), timeout=WAIT).status_code == 401


def test_a_tv_and_a_phone_served_by_two_processes_pair(server, tmp_path):
    """The codes live in the store: a TV on one process (the module's), the host's phone on another."""
    second = ServerProcess(tmp_path, name="second", extra_env={"COMPANION_DATABASE": str(server.database),
                                                               **NO_PAIR_WAIT}).start()
    try:
        table = HostedByPhone(second)
        display = new_display(server)
        assert table.pair(table.ana["token"], display["code"]).status_code == 200
        assert display_status(server, display)["table"] == table.code
    finally:
        second.stop()


def test_a_stranger_cannot_take_the_tv_by_typing_its_code_first(tmp_path):
    """Issue 24 §5: whoever typed the TV's code first took the TV. Now the TV names the table that asked
    (code, host) before showing it, a second table asking makes the TV itself choose, and a paired TV
    moves only at the word of the host of the table it shows, or from the TV itself."""
    room = ServerProcess(tmp_path, extra_env={"COMPANION_PAIR_WAIT": "600"}).start()  # no countdown ends in the test
    try:
        host, stranger = HostedByPhone(room), HostedByPhone(room)
        display = new_display(room)
        first = stranger.pair(stranger.ana["token"], display["code"])
        named = display_status(room, display)
        assert named["state"] == "asked" and [(ask["table"], ask["host"]) for ask in named["asks"]] == [
            (stranger.code, "Ana")]  # the TV names who asks, before it shows anything
        assert first.status_code == 200 and first.json()["state"] == "asked"
        assert host.pair(host.ana["token"], display["code"]).json()["contested"] is True
        contested = display_status(room, display)
        assert contested["contested"] and [ask["table"] for ask in contested["asks"]] == [stranger.code, host.code]
        # Only the TV's own key chooses; the host of the chosen table does not need to win a race.
        forged = requests.post(f"{room.url}/api/displays/mine", json={"table": stranger.code},
                               headers=bearer("forged"), timeout=WAIT)
        assert forged.status_code == 401
        chosen = requests.post(f"{room.url}/api/displays/mine", json={"table": host.code},
                               headers=bearer(display["key"]), timeout=WAIT)
        assert chosen.status_code == 200 and chosen.json()["url"] == f"/t/{host.code}/screen"
        assert display_status(room, display)["table"] == host.code

        # Paired: the stranger is refused, even with its own host token as "current", in both languages.
        for token, current in ((stranger.ana["token"], None), (stranger.host_key, stranger.host_key)):
            taken = stranger.pair(token, display["code"], current)
            assert taken.status_code == 409 and f"This TV shows table {host.code}" in taken.json()["error"]
        french = requests.post(f"{room.url}/api/tables/{stranger.code}/display", json={"pairing": display["code"]},
                               headers={**bearer(stranger.host_key), "Accept-Language": "fr"}, timeout=WAIT)
        assert french.status_code == 409 and f"Cette télé montre la table {host.code}" in french.json()["error"]
        assert display_status(room, display)["table"] == host.code
        # The host of the table it shows moves it to another table of theirs.
        later = HostedByPhone(room)
        moved = later.pair(later.ana["token"], display["code"], current=host.host_key)
        assert moved.status_code == 200 and display_status(room, display)["table"] == later.code

        # The TV itself refuses a table that asked: it keeps waiting for its code.
        other = new_display(room)
        stranger.pair(stranger.ana["token"], other["code"])
        refused = requests.post(f"{room.url}/api/displays/mine", json={"table": None},
                                headers=bearer(other["key"]), timeout=WAIT)
        assert refused.status_code == 200 and display_status(room, other)["state"] == "waiting"
    finally:
        room.stop()


def test_the_host_phone_confirms_a_house_ranking_proposal_for_the_table(server):
    mario, pikachu = "0x0000000000000002", "0x1919000000090002"
    table = HostedByPhone(server)
    cy = table.join("Cy")
    for token, figure in ((table.ana["token"], mario), (table.bo["token"], BOWSER), (cy["token"], pikachu)):
        assert table.http(token, {"type": "figure.pick", "amiibo_id": figure}).status_code == 200

    def propose(token: str, tiers) -> dict:
        answer = requests.put(f"{server.url}/api/rankings/cutest", json={"table": table.code, "tiers": tiers},
                              headers=bearer(token), timeout=WAIT)
        assert answer.status_code in (200, 202), answer.text
        return answer.json()["proposal"]

    proposed = propose(table.bo["token"], [[pikachu], [mario]])
    assert proposed["status"] == "pending" and sorted(proposed["needed"]) == sorted([table.ana["seat"], cy["seat"]])
    # Ana's phone holds the host's rights: her yes confirms for the whole table, as the host screen's would.
    confirmed = requests.post(f"{server.url}/api/rankings/proposals/{proposed['id']}", timeout=WAIT,
                              json={"table": table.code, "agree": True}, headers=bearer(table.ana["token"]))
    assert confirmed.json()["proposal"]["status"] == "agreed", confirmed.text
    # And her own edit needs nobody else; Bo's yes alone would not have been enough.
    assert propose(table.ana["token"], [[mario], [pikachu]])["status"] == "agreed"
    pending = propose(table.bo["token"], [[pikachu, mario]])
    mine = requests.post(f"{server.url}/api/rankings/proposals/{pending['id']}", timeout=WAIT,
                         json={"table": table.code, "agree": True}, headers=bearer(cy["token"]))
    assert mine.json()["proposal"]["status"] == "pending"


def test_the_readers_taps_and_refusals_reach_the_host_phone_when_no_host_screen_is_open(app, client,
                                                                                         socket_client):
    """Without a TV or laptop holding the host key, the host phone is where a tap goes and is explained."""
    from types import SimpleNamespace

    created = client.post("/api/tables", json={"game": "amiiboxe", "options": {"figures_per_player": 3}}).json
    code = created["code"]
    ana = client.post(f"/api/tables/{code}/seats", json={"name": "Ana", "entropy": ENTROPY},
                      headers=bearer(created["host_token"])).json
    bo = client.post(f"/api/tables/{code}/seats", json={"name": "Bo", "entropy": ENTROPY}).json
    host_phone = socket_client(code, ana["token"])
    player = socket_client(code, bo["token"])
    assert [m["args"][0]["state"] for m in host_phone.get_received() if m["name"] == "reader"] == ["off"]
    bridge = app.extensions["companion.reader"]
    bridge.on_scan(SimpleNamespace(uid=UID, amiibo_id=LINK))
    assert client.get(f"/api/tables/{code}").json["table"]["figures"]["pending"]["amiibo_id"] == LINK
    client.post(f"/api/tables/{code}/actions", json={"type": "table.joining", "open": False},
                headers=bearer(ana["token"]))
    bridge.on_scan(SimpleNamespace(uid="04a1b2c3d4e5f7", amiibo_id=BOWSER))  # nobody adds, joining closed
    errors = [m["args"][0]["tap_error"] for m in host_phone.get_received() if m["name"] == "reader"]
    assert errors and errors[-1].startswith("Nobody is adding figures")
    # A player learns only whether a reader is there (on connecting), never the taps and their refusals.
    assert [m["args"][0] for m in player.get_received() if m["name"] == "reader"] == [{"state": "off", "model": None}]


def test_guessing_tv_codes_is_stopped_by_the_per_address_limit(tmp_path):
    """A wrong code spends one of the address's missed lookups (COMPANION_LIMIT_LOOKUP); once they are spent,
    even the right code waits: guessing gains nothing. Bad addresses of the pairing pages are not found."""
    limited = ServerProcess(tmp_path, extra_env={"COMPANION_LIMIT_LOOKUP": "3/600"}).start()
    try:
        table = HostedByPhone(limited)
        display = new_display(limited)
        wrong = [code for code in ("ZZZZZZ", "YYYYYY", "XXXXXX", "WWWWWW") if code != display["code"]][:3]
        assert [table.pair(table.ana["token"], code).status_code for code in wrong] == [404, 404, 404]
        stopped = table.pair(table.ana["token"], display["code"])
        assert stopped.status_code == 429 and int(stopped.headers["Retry-After"]) > 0
        assert display_status(limited, display)["state"] == "waiting"
        for address in ("/pair/ABC", "/pair/ABCDEF1", "/screen/qr.svg?pairing=AB%2FCDE", "/screen/qr.svg"):
            assert requests.get(limited.url + address, timeout=WAIT).status_code == 404, address
    finally:
        limited.stop()
