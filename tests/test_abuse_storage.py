"""Storage faults against the real server process: a full disk (a small
tmpfs, or where the machine does not allow mounting one, a file-size limit set
on the server process, which fails its writes the same way) answers the phone
at once with a clear, translated 503 over HTTP and in the Socket.IO
acknowledgement and loses nothing acknowledged; a damaged database is refused
at start with what to do, and a database damaged while running stops taking
actions with that message."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
import requests

from companion.store import DATABASE_DAMAGED, DISK_FAILED
from tests.helpers import ENTROPY, bearer
from tests.screen import Screen
from tests.server import ServerProcess

DISK_FAILED_FR = ("Le serveur n’a pas pu enregistrer\u00a0: son disque est plein ou défaillant. Réessayez dans un "
                  "instant\u00a0; l’hôte doit libérer de la place sur le disque.")


def dice_table(url: str) -> tuple[str, str, str]:
    created = requests.post(f"{url}/api/tables", json={"game": "dice"}, timeout=10).json()
    seat = requests.post(f"{url}/api/tables/{created['code']}/seats", json={"name": "Ana", "entropy": ENTROPY},
                         timeout=10).json()
    return created["code"], seat["token"], created["host_token"]


def roll(url: str, code: str, token: str, lang: str = "en") -> requests.Response:
    return requests.post(f"{url}/api/tables/{code}/actions?lang={lang}", json={"type": "roll"}, headers=bearer(token),
                         timeout=10)


def rolled_numbers(url: str, code: str) -> list[int]:
    entries = requests.get(f"{url}/api/tables/{code}/log", timeout=10).json()["entries"]
    return [entry["event"]["number"] for entry in entries if entry["kind"] == "event"]


class SmallDisk:
    """A 4 MiB tmpfs for the database; without the right to mount one, the
    server's own file-size limit (``prlimit --fsize``) plays the full disk."""

    def __init__(self, where: Path):
        self.path = where / "disk"
        self.path.mkdir()
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(self.path)],
                                 capture_output=True)
        self.mounted = mounted.returncode == 0
        self.filler = self.path / "filler"
        self.server: ServerProcess | None = None

    def fill(self) -> None:
        if not self.mounted:
            wal = Path(str(self.server.database) + "-wal")
            limit = f"--fsize={wal.stat().st_size}:unlimited"  # the soft limit: the test may lift it again
            subprocess.run(["prlimit", f"--pid={self.server.process.pid}", limit], check=True)
            return
        with open(self.filler, "wb") as filler:
            try:
                while True:
                    filler.write(b"\0" * 65536)
                    filler.flush()
            except OSError:
                pass  # full

    def free(self) -> None:
        if not self.mounted:
            subprocess.run(["prlimit", f"--pid={self.server.process.pid}", "--fsize=unlimited:unlimited"], check=True)
            return
        self.filler.unlink()

    def unmount(self) -> None:
        if self.mounted:
            subprocess.run(["umount", "-l", str(self.path)], check=True)


@pytest.fixture
def small_disk(tmp_path):
    disk = SmallDisk(tmp_path)
    yield disk
    disk.unmount()


def test_a_full_disk_answers_at_once_with_a_503_and_loses_nothing_acknowledged(tmp_path, small_disk):
    database = small_disk.path / "companion.sqlite3"
    server = small_disk.server = ServerProcess(tmp_path, extra_env={"COMPANION_DATABASE": str(database)})
    server.database = database
    server.start()
    try:
        code, token, _ = dice_table(server.url)
        phone = Screen(server.url, code, token)
        acknowledged = [phone.play({"type": "roll", "id": f"before-{n}"})["events"][0]["number"] for n in range(3)]

        small_disk.fill()
        answer = phone.act({"type": "roll", "id": "on-a-full-disk"})
        assert answer == {"ok": False, "status": 503, "error": DISK_FAILED, "fault": True}  # not a refusal
        over_http = roll(server.url, code, token, lang="fr")
        assert over_http.status_code == 503 and over_http.json() == {"ok": False, "error": DISK_FAILED_FR, "fault": True}
        joined = requests.post(f"{server.url}/api/tables/{code}/seats", json={"name": "Bo", "entropy": ENTROPY}, timeout=10)
        assert joined.status_code == 503

        small_disk.free()  # the host made room: the same phone goes on, no restart needed
        retried = phone.play({"type": "roll", "id": "on-a-full-disk"})
        acknowledged.append(retried["events"][0]["number"])
        acknowledged.append(roll(server.url, code, token).json()["events"][0]["number"])
        phone.close()
    finally:
        server.kill()  # a power cut: only what was on disk survives
    server.start()
    try:
        assert rolled_numbers(server.url, code) == acknowledged == [1, 2, 3, 4, 5]
    finally:
        server.stop()


def fill_and_damage(database: Path) -> None:
    """Every page but the first (the schema) overwritten, as a failing disk might."""
    with sqlite3.connect(database) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
    with open(database, "r+b") as raw:
        raw.seek(page_size)
        size = raw.seek(0, 2) - page_size
        raw.seek(page_size)
        raw.write(bytes((n * 37) % 251 for n in range(size)))


def test_a_damaged_database_is_refused_at_start_with_what_to_do(tmp_path):
    server = ServerProcess(tmp_path).start()
    code, token, _ = dice_table(server.url)
    assert all(roll(server.url, code, token).status_code == 200 for _ in range(8))
    server.stop()
    with sqlite3.connect(server.database) as db:  # everything in the main file, so that one copy holds it all
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    copy = tmp_path / "copy.sqlite3"
    shutil.copy(server.database, copy)
    fill_and_damage(copy)

    damaged = ServerProcess(tmp_path, extra_env={"COMPANION_DATABASE": str(copy)}, name="damaged")
    with pytest.raises(RuntimeError, match="server exited"):
        damaged.start()
    assert damaged.process.returncode != 0
    said = damaged.log_path.read_text()
    assert "Companion cannot start." in said and f"The database {copy} is damaged" in said
    assert f"sqlite3 {copy} .recover" in said and "backup" in said
    server.start()  # the original file is untouched
    try:
        assert rolled_numbers(server.url, code) == list(range(1, 9))
    finally:
        server.stop()


def test_a_database_damaged_while_running_stops_taking_actions_with_what_to_do(tmp_path):
    server = ServerProcess(tmp_path).start()
    try:
        code, token, host_token = dice_table(server.url)
        phone = Screen(server.url, code, token)
        phone.play({"type": "roll"})
        fill_and_damage(server.database)

        answer = roll(server.url, code, token)
        assert answer.status_code == 503 and answer.json() == {"ok": False, "error": DATABASE_DAMAGED, "fault": True}
        # From then on nothing is read or written, on every path, with the same message.
        assert phone.act({"type": "roll"}) == {"ok": False, "status": 503, "error": DATABASE_DAMAGED, "fault": True}
        created = requests.post(f"{server.url}/api/tables", json={"game": "dice"}, timeout=10)
        assert created.status_code == 503 and created.json()["error"] == DATABASE_DAMAGED
        closing = requests.post(f"{server.url}/api/tables/{code}/close", headers=bearer(host_token), timeout=10)
        assert closing.status_code == 503
        page = requests.get(f"{server.url}/t/{code}", timeout=10)
        assert page.status_code == 503 and "repair the database" in page.text
        assert "is damaged" in server.log_tail() and ".recover" in server.log_tail()
        phone.close()
    finally:
        server.stop()
