"""Server-rendered pages: clear pages for wrong codes, security headers, the QR code."""

from __future__ import annotations

import pytest

from tests.helpers import bearer, new_table


@pytest.mark.parametrize("path", ["/t/ZZZZ", "/t/0OIL", "/host/ZZZZ", "/t/ZZZZ/card", "/t/ZZZZ/verify"])
def test_a_wrong_code_gets_a_clear_page_not_a_stack_trace(client, path):
    page = client.get(path)
    text = page.get_data(as_text=True)
    assert page.status_code == 404
    assert "Table not found" in text and "Traceback" not in text
    assert 'name="code"' in text  # a form to type the right code


def test_a_closed_table_gets_a_clear_page_with_the_verify_link(client):
    table = new_table(client)
    client.post(f"/api/tables/{table['code']}/close", headers=bearer(table["host_token"]))
    page = client.get(f"/t/{table['code']}")
    assert page.status_code == 410
    assert f"/t/{table['code']}/verify" in page.get_data(as_text=True)


def test_codes_typed_in_lower_case_lead_to_the_table(client):
    # A code of digits alone reads the same in lower case: take a table whose code has a letter.
    code = next(code for code in (new_table(client)["code"] for _ in range(20)) if code != code.lower())
    assert client.get(f"/join?code={code.lower()}").headers["Location"].endswith(f"/t/{code}")
    assert client.get(f"/t/{code.lower()}").headers["Location"].endswith(f"/t/{code}")
    assert "not a table code" in client.get("/join?code=hello!").get_data(as_text=True)


def test_host_page_and_card_show_code_address_and_commitment(client):
    table = new_table(client)
    for path in (f"/host/{table['code']}", f"/t/{table['code']}/card"):
        text = client.get(path).get_data(as_text=True)
        assert table["code"] in text and table["join_url"] in text and table["commitment"] in text


def test_qr_code_is_an_svg_of_the_join_address(client):
    table = new_table(client)
    svg = client.get(f"/t/{table['code']}/qr.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert svg.data.lstrip().startswith(b"<?xml") and b"<path" in svg.data


def test_every_page_forbids_inline_scripts_and_framing(client):
    code = new_table(client)["code"]
    for path in ("/", f"/host/{code}", f"/t/{code}", f"/t/{code}/card", f"/t/{code}/verify", "/join",
                 f"/t/{code}/screen", "/screen", "/rankings", "/rayman/labels"):
        page = client.get(path)
        policy = page.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "unsafe-inline" not in policy
        text = page.get_data(as_text=True)
        assert "<script>" not in text and "onclick=" not in text
        # The policy blocks inline styles too: a page's layout written there would silently not apply.
        assert "<style" not in text and ' style="' not in text, path
        assert page.headers["X-Content-Type-Options"] == "nosniff"


def test_player_names_never_reach_a_page_unescaped(client):
    table = new_table(client, names=("<img src=x onerror=f()>",))
    # Names travel as JSON and are shown with textContent; the pages themselves never embed them raw.
    for path in (f"/host/{table['code']}", f"/t/{table['code']}"):
        assert "<img src=x" not in client.get(path).get_data(as_text=True)


def test_qr_code_for_a_waiting_figure_and_a_forged_claim(client):
    table = new_table(client)
    assert client.get(f"/t/{table['code']}/qr.svg?claim=abcDEF123_-x").status_code == 200
    assert client.get(f"/t/{table['code']}/qr.svg?claim=<script>").status_code == 404
