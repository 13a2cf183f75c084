"""Messages people understand: a phone that would only watch is told so before it types a
name, with what the host can do to seat it; the host screen says "Scan to join" above its
QR code; no browser script shows a transport's own English.

Bad inputs tried here: joining a table whose joining is closed, whose game has started, or
that is full (each refused, and the page said so first)."""

from __future__ import annotations

import re

import pytest

from companion.amiibo.locale import translate as locale_translate
from companion.games.base import IllegalAction, Plural
from companion.web.i18n import every_language, translate
from tests.helpers import bearer, new_table, ENTROPY
from tests.test_universalis import GAME as UNIVERSALIS, do as universalis_do, new_duel as universalis_duel
from tests.server import ROOT

WATCH = {
    "closed": "Joining is closed at this table: you will watch as a spectator. The host can open joining",
    "started": "The game has started: you will watch as a spectator. The host can hand you the seat",
    "full": "The table is full (2 seats): you will watch as a spectator. The host can remove a seat",
}


def host_act(client, table, action):
    answer = client.post(f"/api/tables/{table['code']}/actions", json=action, headers=bearer(table["host_token"]))
    assert answer.status_code == 200, answer.json
    return answer


def phone_page(client, table, lang="en"):
    return client.get(f"/t/{table['code']}?lang={lang}").get_data(as_text=True)


def notice_before_name(page: str) -> str | None:
    """The watch notice, when the page has one before the name field."""
    found = re.search(r'<p class="watch-notice" role="status">(.*?)</p>', page, re.S)
    if found:
        assert page.index("watch-notice") < page.index('name="name"')
    return found.group(1).replace("&#39;", "'") if found else None


@pytest.mark.parametrize("reason", ["closed", "started", "full"])
def test_a_phone_that_would_only_watch_is_told_before_typing_a_name(client, reason):
    table = new_table(client, "arkade", names=("Ana", "Bo") if reason != "closed" else ("Ana",))
    if reason == "closed":
        host_act(client, table, {"type": "table.joining", "open": False})
    if reason == "started":
        host_act(client, table, {"type": "table.start"})
    notice = notice_before_name(phone_page(client, table))
    assert notice and notice.startswith(WATCH[reason])
    assert 'class="primary big watch"' in phone_page(client, table)
    refused = client.post(f"/api/tables/{table['code']}/seats", json={"name": "Cy", "entropy": ENTROPY})
    assert refused.status_code == 403  # what the page said is what joining does


def test_the_notice_speaks_the_pages_language_and_an_open_table_has_none(client):
    table = new_table(client, "arkade", names=("Ana",))
    assert notice_before_name(phone_page(client, table)) is None
    host_act(client, table, {"type": "table.joining", "open": False})
    french = notice_before_name(phone_page(client, table, "fr"))
    assert french.startswith("Cette table n’accepte plus de joueurs\u00a0: vous regarderez en spectateur.")


def test_the_host_screen_says_scan_to_join_above_the_qr_code_with_the_address_and_code(client):
    table = new_table(client, "dice", names=())
    page = client.get(f"/host/{table['code']}?lang=fr").get_data(as_text=True)
    assert page.index("Scannez pour rejoindre") < page.index('class="qr"') < page.index(table["code"] + "</p>")
    assert f"/t/{table['code']}</p>" in page


def test_scripts_ask_the_server_through_the_one_helper_that_never_shows_transport_english():
    """A failed fetch or an unacknowledged emit carries the browser's English (“Failed to fetch”,
    “operation has timed out”): requests go through ui.js's requestJson, which says it in the
    page's language, and the socket's acknowledgements never pass their Error on."""
    scripts = {path.name: path.read_text(encoding="utf-8") for path in (ROOT / "static" / "js").rglob("*.js")}
    awaited = sorted(name for name, text in scripts.items() if "await fetch(" in text)
    assert awaited == ["ui.js"]
    assert "catch (timeout)" not in scripts["connection.js"] and "error: t(" in scripts["connection.js"]


def test_a_malformed_code_is_refused_under_its_field_saying_what_a_code_looks_like(client):
    page = client.get("/join?code=hello!").get_data(as_text=True)
    field, error = page.index('name="code"'), page.index('id="code-error"')
    assert field < error and 'aria-describedby="code-error"' in page and 'value="hello!"' in page
    assert "is not a table code: codes have 4 or 5 letters and digits." in page



# --- counts: gettext's plural forms (French says "0 point" and "1 point", English "0 points") ------

BONUS = Plural("You have only %(count)s bonus token.", "You have only %(count)s bonus tokens.")
SAID = {("en", 0): "You have only 0 bonus tokens.", ("en", 1): "You have only 1 bonus token.",
        ("en", 2): "You have only 2 bonus tokens.", ("fr", 0): "Vous n’avez que 0 Jeton Bonus.",
        ("fr", 1): "Vous n’avez que 1 Jeton Bonus.", ("fr", 2): "Vous n’avez que 2 Jetons Bonus."}


@pytest.mark.parametrize("count", [0, 1, 2])
def test_a_refusal_that_counts_takes_the_form_of_its_count_in_each_language(app, count):
    refusal = IllegalAction(BONUS, count=count)
    assert str(refusal) == SAID["en", count]  # the log's English too
    for language in ("en", "fr"):
        with app.test_request_context(f"/?lang={language}"):
            assert translate(refusal) == SAID[language, count]
    assert every_language(app)(BONUS, {"count": count}) == {"en": SAID["en", count], "fr": SAID["fr", count]}


@pytest.mark.parametrize("count, english, french", [(1, "1 letter", "1 lettre"), (2, "2 letters", "2 lettres")])
def test_a_figures_name_length_counts_its_letters_in_each_language(count, english, french):
    """Outside a request (the amiibo catalogue, the command line): the same plural forms."""
    letters = Plural("%(count)s letter", "%(count)s letters")
    assert (locale_translate("en", letters, count=count), locale_translate("fr", letters, count=count)) == (english, french)


def test_the_end_of_a_game_says_who_in_each_language(app):
    """« drew from an empty deck » names the player; the sentence is the same on every screen, in its language."""
    state = universalis_do(universalis_duel(), 1, {"type": "deck_count", "count": 0})
    outcome = UNIVERSALIS.outcome(universalis_do(state, 1, {"type": "draw"}))
    assert every_language(app)(outcome["reason"], outcome["params"]) == {
        "en": "Ana drew from an empty deck: Bo wins.", "fr": "Ana a pioché dans un deck vide\u00a0: Bo gagne."}
