"""Syncing the catalogue, against an HTTP server on 127.0.0.1 and a dead port
(never the internet)."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from companion.amiibo.catalog import Catalog
from companion.amiibo.document import CatalogError
from companion.amiibo.locale import translate_error
from companion.amiibo.sync import download
from companion.store import Store
from tests.server import free_port
from tests.test_amiibo_catalog import contents, small

PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")


class Handler(BaseHTTPRequestHandler):
    routes: dict[str, bytes] = {}

    def do_GET(self):
        if self.path == "/slow":
            time.sleep(2)
        body = self.routes.get(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # the client of /slow has given up: a broken pipe is expected


@pytest.fixture
def app_config():
    """These tests start from an empty catalogue (not the shipped one): a sync fills it."""
    return {"SHIPPED_CATALOGUE": None}


@pytest.fixture
def loopback(monkeypatch):
    """An HTTP server on 127.0.0.1 in a thread, serving a small catalogue."""
    for variable in PROXY_VARIABLES:  # the request must go straight to 127.0.0.1
        monkeypatch.delenv(variable, raising=False)
    Handler.routes = {"/amiibo.json": json.dumps(small()).encode(), "/broken.json": b"{\"amiibos\": [",
                      "/slow": b"{}"}
    server = QuietServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture
def dead_url():
    return f"http://127.0.0.1:{free_port()}/amiibo.json"  # nothing listens there


@pytest.fixture
def catalog(tmp_path):
    store = Store(str(tmp_path / "catalog.sqlite3"))
    yield Catalog(store)
    store.close()


def test_sync_imports_the_served_file_and_twice_changes_nothing(catalog, loopback):
    counts = catalog.sync(loopback + "/amiibo.json", timeout=5)
    assert counts["amiibos"]["added"] == len(small()["amiibos"])
    assert catalog.describe("0x0001000000010002")["name"] == "Luigi"
    before = contents(catalog.store)
    again = catalog.sync(loopback + "/amiibo.json", timeout=5)
    assert again["amiibos"]["added"] == again["amiibos"]["updated"] == 0
    assert contents(catalog.store) == before


def test_a_dead_port_says_offline_and_changes_nothing(catalog, dead_url):
    catalog.import_document(small())
    before = contents(catalog.store)
    with pytest.raises(CatalogError) as refused:
        catalog.sync(dead_url, timeout=5)
    assert "Could not reach " + dead_url in translate_error(refused.value, "en")
    assert "Is this machine online? Nothing was changed." in translate_error(refused.value, "en")
    assert "Cette machine est-elle en ligne\u00a0? Rien n’a changé." in translate_error(refused.value, "fr")
    assert contents(catalog.store) == before


@pytest.mark.parametrize("path, message", [
    ("/missing.json", "answered with the HTTP status 404; nothing was changed"),
    ("/broken.json", "not valid JSON (line 1, column 14)"),
])
def test_a_bad_answer_changes_nothing(catalog, loopback, path, message):
    catalog.import_document(small())
    before = contents(catalog.store)
    with pytest.raises(CatalogError, match=message.replace("(", r"\(").replace(")", r"\)")):
        catalog.sync(loopback + path, timeout=5)
    assert contents(catalog.store) == before


def test_a_silent_server_times_out(loopback):
    started = time.monotonic()
    with pytest.raises(CatalogError, match="did not answer within 0.3 seconds"):
        download(loopback + "/slow", timeout=0.3)
    assert time.monotonic() - started < 1.5


def test_a_download_too_large_is_refused(loopback):
    with pytest.raises(CatalogError, match="is larger than"):
        download(loopback + "/amiibo.json", timeout=5, max_bytes=100)


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://127.0.0.1/amiibo.json", "amiibo.json", "http://"])
def test_only_http_addresses_are_synced_from(url):
    with pytest.raises(CatalogError, match="Only http:// and https:// addresses"):
        download(url)


def test_the_sync_command(app, loopback, dead_url):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["catalog", "sync", "--url", loopback + "/amiibo.json", "--timeout", "5"],
                           env={"LANGUAGE": "en"})
    assert result.exit_code == 0, result.output
    assert "figures: 6 new, 0 changed, 0 unchanged" in result.output
    offline = runner.invoke(args=["catalog", "sync", "--url", dead_url, "--timeout", "5"], env={"LANGUAGE": "fr"})
    assert offline.exit_code == 1
    assert "Impossible de joindre " + dead_url in offline.output
    assert "Rien n’a changé." in offline.output
    assert app.extensions["companion.catalog"].counts()["amiibos"] == 6
