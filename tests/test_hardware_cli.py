"""``python -m hardware.reader``: --check's verdict and --server's posts, as real processes."""

from __future__ import annotations

import http.server
import json
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from hardware.emulate import Emulator

ROOT = Path(__file__).resolve().parent.parent
WAIT = 15.0  # s: a guard against hanging, not a measure


def run_reader(*args):
    return subprocess.run([sys.executable, "-m", "hardware.reader", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_check_without_a_reader_fails():
    result = run_reader("--check", "--device", "none")
    assert result.returncode == 1
    assert "runs without a reader" in result.stdout


def test_check_on_an_impossible_path_fails_with_the_usual_fixes():
    result = run_reader("--check", "--device", "usb:ffff:fffe")
    assert result.returncode == 1
    assert "trying usb:ffff:fffe ..." in result.stdout
    assert "no reader there" in result.stdout
    assert "sudo modprobe -r pn533_usb" in result.stdout
    assert "/etc/modprobe.d/" in result.stdout
    assert 'ATTRS{idVendor}=="072f", ATTRS{idProduct}=="2200"' in result.stdout  # udev rule for the ACR122U


def test_check_on_a_serial_path_gives_the_raspberry_pi_uart_fixes():
    result = run_reader("--check", "--device", "tty:AMA9:pn532")
    assert result.returncode == 1
    assert "enable_uart=1" in result.stdout
    assert "serial console" in result.stdout


def test_check_succeeds_when_a_reader_answers():
    with Emulator(port=0) as emulator:
        emulator.place("04a1b2c3d4e5f6", "0x0000000000340102")  # answers the test poll at once
        result = run_reader("--check", "--device", emulator.path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"opened: Linux IP-Stack UDP at {emulator.path}" in result.stdout
    assert "UID 04a1b2c3d4e5f6" in result.stdout
    assert f"OK: a reader answers at {emulator.path}" in result.stdout


def test_server_mode_needs_a_table_and_a_token():
    result = run_reader("--server", "http://127.0.0.1:9", "--table", "ABCD")
    assert result.returncode == 2
    assert "--server needs --table CODE and --token HOST_TOKEN" in result.stderr


class Actions(http.server.BaseHTTPRequestHandler):
    """Records each POST; answers the first with 200 and the next ones with 409."""

    received: queue.Queue

    def do_POST(self):  # noqa: N802 (http.server's naming)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        count = self.server.posts = getattr(self.server, "posts", 0) + 1
        self.server.received.put({"path": self.path, "headers": dict(self.headers), "body": body})
        status, answer = (200, {"ok": True, "events": ["scanned"]}) if count == 1 else \
            (409, {"ok": False, "error": "that figure is already on the table"})
        payload = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture
def actions_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Actions)
    server.received = queue.Queue()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join()


def test_server_mode_posts_each_scan_as_a_table_scan_action(actions_server):
    url = f"http://127.0.0.1:{actions_server.server_address[1]}"
    with Emulator(port=0) as emulator:
        process = subprocess.Popen(
            [sys.executable, "-m", "hardware.reader", "--server", url, "--table", "K7QX",
             "--token", "host-secret", "--device", emulator.path],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line.rstrip()) for line in process.stdout],
                         daemon=True).start()

        def wait_line(prefix):
            while True:
                line = lines.get(timeout=WAIT)
                if line.startswith(prefix):
                    return line

        try:
            assert wait_line("reader connected") == f"reader connected: Linux IP-Stack UDP at {emulator.path}"
            emulator.place("04a1b2c3d4e5f6", "0x0000000000340102")
            first = actions_server.received.get(timeout=WAIT)
            assert wait_line("server:") == 'server: HTTP 200 {"ok": true, "events": ["scanned"]}'

            emulator.remove()
            emulator.place("04c0ffee00beef", "0x1f00000002580502")
            second = actions_server.received.get(timeout=WAIT)
            assert wait_line("server refused the scan:") == (
                'server refused the scan: HTTP 409 {"ok": false, "error": "that figure is already on the table"}')

            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=WAIT) == 0
            assert wait_line("reader off") == "reader off: Reader stopped."
        finally:
            if process.poll() is None:
                process.kill()
            process.wait()
            process.stdout.close()

    for post in (first, second):
        assert post["path"] == "/api/tables/K7QX/actions"
        assert post["headers"]["Authorization"] == "Bearer host-secret"
        assert post["headers"]["Content-Type"] == "application/json"
    bodies = [json.loads(post["body"]) for post in (first, second)]
    assert [{k: v for k, v in body.items() if k != "id"} for body in bodies] == [
        {"type": "table.scan", "uid": "04a1b2c3d4e5f6", "amiibo_id": "0x0000000000340102"},
        {"type": "table.scan", "uid": "04c0ffee00beef", "amiibo_id": "0x1f00000002580502"},
    ]
    assert all(isinstance(body["id"], str) and body["id"] for body in bodies)
    assert bodies[0]["id"] != bodies[1]["id"]
