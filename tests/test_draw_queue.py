"""Issue 24: draws committed while another waits queue up (first come, first drawn), and every round has a
time limit. Against the real server process, with real Socket.IO phones and the operator reading the SQLite
file: each queued draw is irrevocable when accepted and drawn from a round opened after it, so nobody (the
operator included) can compute it first; the queue survives a restart of the server; a seat can hold one
waiting draw only; a phone that stays silent holds no round, a join's or a start's included."""

from __future__ import annotations

import threading

import requests

from companion.verify import verify_log
from tests.phones import ChainPhone, answer_rounds
from tests.screen import Screen
from tests.server import server_fixture
from tests.test_operator_attacks import (act, connected, draws_of, host, log, new_table, play_until, rayman_choice,
                                         verified_after_closing, what_the_operator_reads)


server = server_fixture("queue")


def dice_table(server, *names: str) -> tuple[dict, list[ChainPhone], list[Screen]]:
    """A die table whose phones' pages are open and in the pool."""
    table = new_table(server, "dice")
    phones = [ChainPhone(server.url, table["code"], name) for name in names]
    screens = [connected(phone) for phone in phones]
    answer_rounds(*phones)
    return table, phones, screens


def tap_at_once(screens: list[Screen], action: dict) -> list[dict]:
    """Every screen sends the action at the same moment (one thread each); their answers, in screen order."""
    answers: list[dict] = [{} for _ in screens]
    start = threading.Barrier(len(screens))

    def tap(index: int) -> None:
        start.wait()
        answers[index] = screens[index].act(action)

    threads = [threading.Thread(target=tap, args=(index,)) for index in range(len(screens))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def book(phone: ChainPhone) -> tuple:
    """What a refused action must leave as it was: the table's log, its book of random contributions and
    its queue of draws."""
    entries = requests.get(f"{phone.url}/api/tables/{phone.code}/log", timeout=20).json()["entries"]
    table = phone.view()["table"]
    return entries, table["entropy"], table["draw"]


def committed_order(entries: list[dict]) -> list[int]:
    return [entry["seat"] for entry in entries if entry.get("type") == "draw_waits"]


def test_two_phones_tapping_at_once_are_both_drawn_first_come_first_drawn(server):
    """Ana and Mallory (the operator's accomplice) tap the shared die at the same moment, three times over.
    Neither is refused: the first is committed with its round, the second is committed and queued. When the
    second is accepted, the store lacks the values of Ana's its draw depends on; it is drawn after the first,
    from a round opened after it was committed. Both verifiers check the order and the rounds."""
    table, (ana, mallory), screens = dice_table(server, "Ana", "Mallory")
    for turn in range(3):
        answers = tap_at_once(screens, {"type": "roll"})
        assert all(answer["ok"] for answer in answers), answers
        queued = [answer["events"][0] for answer in answers if answer["events"][0].get("queued")]
        assert len(queued) == 1 and queued[0]["queued"] == 1, answers
        known = what_the_operator_reads(server)  # both rolls are irrevocable now
        # The second roll's round takes Ana's value after her value for the first roll's round: neither is known.
        assert ana.chain[ana.k + 1] not in known and ana.chain[ana.k + 2] not in known
        second = queued[0]["seat"]
        view = screens[0].wait_for(lambda view: view["table"]["draw"]["queue"] == [second])
        first = view["table"]["draw"]["seat"]
        assert {first, second} == {ana.seat, mallory.seat}
        answer_rounds(ana, mallory)  # the first roll's round, then the second's (opened once the first ran)
        done = screens[0].wait_for(lambda view: not view["table"]["draw"]["waits"])
        assert [roll["seat"] for roll in done["game"]["history"][:2]] == [second, first]  # newest first
        assert done["table"]["draw"]["queue"] == []

    entries = log(server, table["code"])["entries"]
    draws = [entry for entry in entries if entry["kind"] == "draw"]
    assert [draw["by"] for draw in draws] == committed_order(entries)  # first come, first drawn
    for draw in draws:  # each from a round opened after its roll was committed, never alone
        committed = next(e for e in entries if e.get("type") == "draw_waits" and e["i"] < draw["i"]
                         and e["seat"] == draw["by"] and not e.get("served"))
        committed["served"] = True
        sealed = next(e for e in entries if e["kind"] == "pool" and e["pool"] == draw["pool"])
        opened = max(e["i"] for e in entries if e["kind"] == "round" and e["round"] == sealed["round"])
        assert committed["i"] < opened < draw["i"] and draw["reveal"] is None and not draw.get("alone")
    for screen in screens:
        screen.close()
    host(server, table, {"type": "table.close"})
    closed = log(server, table["code"])
    for record in (ana.record, mallory.record):
        report = verify_log(closed, record)
        assert report.ok and not report.replay and report.draws_checked == 6, (report.problems, report.replay)


def test_a_log_whose_queue_is_served_out_of_order_is_caught(server):
    """The verifiers' side: the same log with the two committed rolls swapped (the second drawn first), or with
    a queued roll drawn from the round before it was committed, is reported at the action's entry."""
    table, (ana, bo), screens = dice_table(server, "Ana", "Bo")
    assert screens[0].act({"type": "roll"})["ok"]
    assert screens[1].act({"type": "roll"})["events"][0]["queued"] == 1
    answer_rounds(ana, bo)
    screens[0].wait_for(lambda view: not view["table"]["draw"]["waits"])
    for screen in screens:
        screen.close()
    host(server, table, {"type": "table.close"})
    honest = log(server, table["code"])
    assert verify_log(honest).ok

    swapped = {**honest, "entries": [dict(entry) for entry in honest["entries"]]}
    waits = [entry for entry in swapped["entries"] if entry.get("type") == "draw_waits"]
    waits[0]["seat"], waits[1]["seat"] = waits[1]["seat"], waits[0]["seat"]
    report = verify_log(swapped)
    first_action = next(e for e in swapped["entries"] if e["kind"] == "action" and e.get("call") == "apply")
    assert not report.ok and report.problems[0][0] == first_action["i"]
    assert "first come, first drawn" in report.problems[0][1]

    early = {**honest, "entries": [dict(entry) for entry in honest["entries"]]}
    # Bo's roll claimed as committed after its round opened: its draws could have been computed first.
    bos = next(entry for entry in early["entries"] if entry.get("type") == "draw_waits" and entry["seat"] == bo.seat)
    last_round = max(e["i"] for e in early["entries"] if e["kind"] == "round")
    bos["i"] = last_round + 0.5
    report = verify_log(early)
    assert not report.ok and "opened before it was committed" in report.problems[0][1]


def test_a_second_draw_and_bad_reveals_while_draws_wait_are_refused_and_change_nothing(server):
    """While Ana's roll waits and Bo's is queued behind it: Bo's second roll, Ana's second roll, a reveal for the
    queued roll's round sent for another seat, that round's value sent before the round opens (a skip in the
    open round, or a second value in it), and the host's table call are each refused with a clear message;
    neither the log nor the book nor the queue changes."""
    table, (ana, bo), screens = dice_table(server, "Ana", "Bo")
    assert screens[0].act({"type": "roll"})["ok"]
    assert screens[1].act({"type": "roll"})["events"] == [{"type": "draw_waits", "seat": bo.seat, "queued": 1}]
    before = book(ana)
    assert before[2] == {"waits": True, "seat": ana.seat, "queue": [bo.seat], "alone": None}

    for screen in screens:  # a seat's second draw while its first waits (queued or at the head)
        again = screen.act({"type": "roll"})
        assert again["status"] == 409 and again["error"].startswith("Your draw waits"), again
    other = screens[1].act({"type": "entropy.reveal", "seat": ana.seat, "value": ana.chain[ana.k + 2]})
    assert other["status"] == 403 and "own seat" in other["error"]
    skipped = screens[0].act({"type": "entropy.reveal", "value": ana.chain[ana.k + 2]})  # the queued round's value
    assert skipped["status"] == 400 and "very next" in skipped["error"]
    assert host(server, table, {"type": "table.another", "game": "dice"}).status_code == 409
    assert book(ana) == before

    ana.answer_round()  # Ana's value for her own roll's round; she may not send her next one before it opens
    mid = book(ana)
    early = screens[0].act({"type": "entropy.reveal", "value": ana.chain[ana.k + 1]})
    assert early["status"] == 409 and "already sent" in early["error"]
    assert book(ana) == mid
    answer_rounds(ana, bo)
    assert [draw["by"] for draw in draws_of(server, table["code"])] == [ana.seat, bo.seat]
    for screen in screens:
        screen.close()


restartable = server_fixture("restart", scope="function")


def test_the_queue_is_in_the_store_a_server_restart_loses_nothing(restartable):
    """Ana's roll waits for its round, Bo's is queued; the server process is killed (no shutdown handler runs)
    and started again on the same database. The queue is still there, the phones come back and answer, and
    both rolls are drawn in order, each from its own round."""
    server = restartable
    table, (ana, bo), screens = dice_table(server, "Ana", "Bo")
    assert screens[0].act({"type": "roll"})["ok"]
    assert screens[1].act({"type": "roll"})["events"][0]["queued"] == 1
    ana.answer_round()  # half of the first roll's round is in before the cut

    server.kill()
    server.start()
    draw = ana.view()["table"]["draw"]
    assert draw["waits"] and draw["seat"] == ana.seat and draw["queue"] == [bo.seat]
    screens = [connected(ana), connected(bo)]  # the pages come back: the second round asks both again
    answer_rounds(ana, bo)
    done = screens[0].wait_for(lambda view: not view["table"]["draw"]["waits"])
    assert [roll["seat"] for roll in done["game"]["history"][:2]] == [bo.seat, ana.seat]
    entries = log(server, table["code"])["entries"]
    fresh = [entry for entry in entries if entry["kind"] == "round" and entry.get("why") == "fresh"]
    assert [sorted(entry["asked"]) for entry in fresh] == [sorted([ana.seat, bo.seat])] * 2
    for screen in screens:
        screen.close()
    report = verified_after_closing(server, table, ana.record)
    assert report.ok and not report.replay and report.draws_checked == 2, (report.problems, report.replay)
    assert verify_log(log(server, table["code"]), bo.record).ok


# --- every round has the table's time limit -------------------------------------------------------------

def timed_out(entries: list[dict]) -> list[list[int]]:
    return [entry["without"] for entry in entries if entry.get("type") == "round_timed_out"]


def answer_the_restarted_round(screen: Screen, phones: list[ChainPhone], asked: list[ChainPhone] = ()) -> None:
    """Once the round's time is up it starts again asking only ``phones`` (or ``asked``): ``phones`` answer it."""
    seats = sorted(phone.seat for phone in asked or phones)
    screen.wait_for(lambda view: (view["table"]["entropy"]["round"] or {}).get("asked") == seats
                    and not view["table"]["entropy"]["round"]["revealed"])
    answer_rounds(*phones)


def test_a_silent_phone_holds_neither_a_join_round_nor_the_start(quick_rounds):
    """Bo's phone joins and never answers (its page was closed); Mallory's page stays open and withholds. Each
    join round goes on without the silent phones once its time is up (a veto in the log, counted by the
    verifier). At the start the start round does too: Mallory, here and withholding, loses her seat as with the
    host's "Go on without them" (the veto of a setup costs the seat); Bo, away, keeps his. The game starts with
    Ana, Bo and Cy, and nobody pressed anything.
    (The draw rounds' own timeout: tests/test_operator_attacks.py::test_a_silent_phone_does_not_hold_the_roll.)"""
    server = quick_rounds
    table = new_table(server, "rayman")
    ana, cy = ChainPhone(server.url, table["code"], "Ana"), ChainPhone(server.url, table["code"], "Cy")
    answer_rounds(ana, cy)
    watching = connected(ana)
    bo = ChainPhone(server.url, table["code"], "Bo")  # silent from here on, its page closed
    answer_rounds(ana, cy)
    answer_the_restarted_round(watching, [ana, cy])
    watching.wait_for(lambda view: view["table"]["entropy"]["round"] is None)
    mallory = ChainPhone(server.url, table["code"], "Mallory")
    withholding = connected(mallory)  # here, and never answers
    answer_rounds(ana, cy)
    answer_the_restarted_round(watching, [ana, cy])
    watching.wait_for(lambda view: view["table"]["entropy"]["round"] is None)
    assert timed_out(log(server, table["code"])["entries"]) == [[bo.seat], [bo.seat, mallory.seat]]

    assert host(server, table, {"type": "table.start"}).status_code == 200
    answer_rounds(ana, cy)  # its time up, the round starts again without Mallory, who leaves; still asking Bo
    answer_the_restarted_round(watching, [ana, cy], asked=[ana, bo, cy])
    answer_the_restarted_round(watching, [ana, cy])  # then without Bo, who stays
    playing = watching.wait_for(lambda view: view["table"]["status"] == "playing")
    assert sorted(seat["id"] for seat in playing["table"]["seats"]) == sorted([ana.seat, bo.seat, cy.seat])
    entries = log(server, table["code"])["entries"]
    assert timed_out(entries)[2:] == [[bo.seat, mallory.seat], [bo.seat]]
    assert [e["seat"] for e in entries if e.get("type") == "removed"] == [mallory.seat]
    watching.close()
    withholding.close()
    report = verified_after_closing(server, table, ana.record)
    assert report.ok and not report.replay, (report.problems, report.replay)
    assert report.restarts == 4 and sum("started again without" in note for note in report.notes) == 4
    assert "4 round(s) started again" in report.message


def test_a_silent_phone_does_not_hold_the_draw_of_a_lost_choice(quick_rounds):
    """Rayman: Mallory's choice is lost after Ana revealed hers, so it is drawn from a round opened then. Mallory's
    phone stays silent in that round: once its time is up the round starts again without it (a veto in the log),
    Ana reveals a fresh value, and the choice is drawn."""
    from companion.games.rayman import commitment

    server = quick_rounds
    table = new_table(server, "rayman")
    ana, mallory = ChainPhone(server.url, table["code"], "Ana"), ChainPhone(server.url, table["code"], "Mallory")
    answer_rounds(ana, mallory)
    assert host(server, table, {"type": "table.start"}).status_code == 200
    play_until(server, table, [ana, mallory], "choosing")
    anas, salt = rayman_choice(ana.view()["game"], ana.seat), "ab" * 16
    assert act(ana, {"type": "lock", "commitment": commitment(anas, salt)}).status_code == 200
    mallorys = rayman_choice(mallory.view()["game"], mallory.seat)
    assert act(mallory, {"type": "lock", "commitment": commitment(mallorys, "cd" * 16)}).status_code == 200
    assert act(ana, {"type": "reveal", "choice": anas, "salt": salt}).status_code == 200
    watching = connected(ana)
    assert act(mallory, {"type": "repick"}).json()["events"] == [{"type": "choice_lost", "seat": mallory.seat}]
    answer_rounds(ana)  # Mallory stays silent
    answer_the_restarted_round(watching, [ana])
    watching.wait_for(lambda view: view["table"]["entropy"]["round"] is None)

    entries = log(server, table["code"])["entries"]
    assert timed_out(entries)[-1] == [mallory.seat]
    drawn = next(e for e in entries if e["kind"] == "draw" and e["purpose"]["kind"] == "lost_choice")
    assert drawn["pool"] == ana.view()["table"]["entropy"]["pool"]
    watching.close()
    report = verified_after_closing(server, table, ana.record)
    assert report.ok and not report.replay, (report.problems, report.replay)
    assert report.restarts >= 1
