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
import textwrap
from pathlib import Path

import pytest
import requests

from companion.store import DATABASE_DAMAGED, DISK_FAILED, SCHEMA_VERSION, DamagedDatabase, Store, repair_commands
from companion.tables import Tables
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
    original = files_of(server.database)

    damaged = ServerProcess(tmp_path, extra_env={"COMPANION_DATABASE": str(copy)}, name="damaged")
    with pytest.raises(RuntimeError, match="server exited"):
        damaged.start()
    assert damaged.process.returncode != 0
    said = damaged.log_path.read_text()
    assert "Companion cannot start." in said and f"The database {copy} is damaged" in said
    assert f"sqlite3 {copy} .dump" in said and "backup" in said
    assert files_of(server.database) == original  # the original file is untouched, byte for byte
    rolled = [entry["event"]["number"] for entry in stored_tables(server.database)[code] if entry["kind"] == "event"]
    assert rolled == list(range(1, 9))  # and the server reads every roll in it


def files_of(database: Path) -> dict[str, bytes]:
    """The database's file and its journal files (a WAL, its index), as they are on the disk."""
    return {path.name: path.read_bytes() for path in database.parent.glob(database.name + "*")}


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
        assert "is damaged" in server.log_tail() and ".dump" in server.log_tail()
        phone.close()
    finally:
        server.stop()


def stored_tables(path: Path) -> dict[str, list]:
    """Every table of a store file and its log, as the server reads them."""
    store = Store(str(path))
    try:
        with store.reading() as tx:
            codes = [row["code"] for row in tx.execute("SELECT code FROM tables ORDER BY code").fetchall()]
            return {code: tx.log(code) for code in codes}
    finally:
        store.close()


def run_repair(path: Path) -> None:
    """The commands the server prints for a damaged file, run as a host would paste them."""
    for command in repair_commands(str(path)):
        subprocess.run(["bash", "-c", command], check=True, capture_output=True, timeout=120)


def rolled_store(path: Path, tables: int = 12, rolls: int = 30) -> dict[str, list]:
    store = Store(str(path))
    many = Tables(store, rate_capacity=10_000, rate_per_second=10_000)
    for _ in range(tables):
        code = many.create("dice", {})["code"]
        token = many.join(code, "Ana", ENTROPY)["token"]
        for _ in range(rolls):
            many.act(code, token, {"type": "roll"})
    store.close()
    return stored_tables(path)


@pytest.mark.skipif(shutil.which("sqlite3") is None, reason="the sqlite3 command (./manage.sh install-test installs it)")
def test_the_printed_repair_keeps_a_healthy_file_whole_and_saves_what_a_damaged_one_still_holds(tmp_path):
    healthy = tmp_path / "healthy.sqlite3"
    before = rolled_store(healthy)
    run_repair(healthy)
    assert not Path(str(healthy) + ".recovered").exists()
    assert stored_tables(healthy) == before  # the server opens it (its check passes) and reads every entry
    assert sqlite3.connect(healthy).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION

    damaged = tmp_path / "damaged.sqlite3"
    shutil.copy(healthy, damaged)
    with sqlite3.connect(damaged) as db:
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
    with open(damaged, "r+b") as raw:  # one page in the middle, as a failing SD card might
        raw.seek(page_size * (pages // 2))
        raw.write(b"\xff" * page_size)
    with pytest.raises(DamagedDatabase):
        Store(str(damaged))
    run_repair(damaged)
    saved = stored_tables(damaged)
    kept = sum(len(log) for log in saved.values())
    assert 0 < kept < sum(len(log) for log in before.values())
    assert all(set(map(str, log)) <= set(map(str, before[code])) for code, log in saved.items())  # nothing made up


FAILING_FSYNC_SCRIPT = textwrap.dedent("""
    from gevent import monkey; monkey.patch_all()
    import json, os, sys
    from companion.store import Store, StorageError
    from companion.tables import Tables, TableError
    real_fsync, failures = os.fsync, [0]
    def fsync(fd):  # the disk: the next `failures` fsyncs fail, as a failing SD card's do
        if failures[0]:
            failures[0] -= 1
            raise OSError(5, "Input/output error")
        real_fsync(fd)
    os.fsync = fsync
    store = Store(sys.argv[1])
    assert store.group_sync is not None  # under gevent: the group commit syncs with os.fsync
    shown = []  # what every screen was sent: the last roll of each publish
    tables = Tables(store, notify=lambda code, views, **kw: shown.append((views[None]["game"] or {}).get("last")))
    code = tables.create("dice", {})["code"]
    token = tables.join(code, "Ana", "5a" * 32)["token"]
    def roll():
        try:
            answer = tables.act(code, token, {"type": "roll"})
            return {"ok": True, "number": answer["events"][0]["number"]}
        except (StorageError, TableError) as error:
            return {"ok": False, "error": str(error)}
    def logged():
        with store.reading() as tx:
            return [entry["event"]["number"] for entry in tx.log(code) if entry["kind"] == "event"]
    report = {}
    failures[0] = 1
    report["fsync fails once"] = roll()
    report["logged then"] = logged()
    report["shown then"] = [last["number"] for last in shown if last]
    failures[0] = 1000
    report["while the disk fails"] = roll()
    report["logged while failing"] = logged()
    failures[0] = 0
    report["disk back"] = roll()
    report["logged"] = logged()
    print(json.dumps(report))
""")


def test_a_roll_whose_fsync_failed_is_either_told_as_rolled_or_leaves_no_trace(tmp_path):
    """The real store under gevent (its group commit calls os.fsync), with the disk's fsync failing.
    Once: the roll was committed and every reader sees it, so the phone is told it rolled (not "failed",
    while the roll stays and is shown to everyone). While the disk keeps failing: the next roll is refused
    before anything is written, and leaves no trace. Disk back: the rolls go on from where they were."""
    import json
    import sys

    result = subprocess.run([sys.executable, "-c", FAILING_FSYNC_SCRIPT, str(tmp_path / "db.sqlite3")],
                            cwd=Path(__file__).resolve().parent.parent, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["fsync fails once"] == {"ok": True, "number": 1}
    assert report["logged then"] == [1] and report["shown then"] == [1]
    assert report["while the disk fails"] == {"ok": False, "error": DISK_FAILED}
    assert report["logged while failing"] == [1]
    assert report["disk back"] == {"ok": True, "number": 2}
    assert report["logged"] == [1, 2]
    assert "An fsync of" in result.stderr and "failed" in result.stderr  # the operator's log says so
