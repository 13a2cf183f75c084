"""Figures of a benchmark run: merging the client processes' tallies,
percentiles, the targets, and the markdown that goes into docs/benchmarks.md."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

MB = 1024 * 1024
RSS_TARGET_MB = 150
OVERHEAD_TARGET = 1.5
# A client process busier than this (share of one core) may be slowing its own
# receivers down: its latencies then overstate the server's.
CLIENT_BUSY_SHARE = 0.8


@dataclass(frozen=True)
class Load:
    key: str
    label: str
    tables: int
    phones: int
    p99_target_ms: float


@dataclass
class Outcome:
    """One server kind under one load."""

    load: Load
    kind: str  # "companion" or "echo"
    tally: dict  # the merged tallies of the client processes (see phones.Tally)
    client_cpu_shares: list[float]
    server_cpu_share: float  # of one core, over the load window
    peak_rss: int
    peak_worker_rss: int
    server_log_problems: int
    duration: float
    server_log_sample: list = field(default_factory=list)  # the first error lines of the server's log
    run: int = 1  # which repetition of the servers and loads (bench/run.py --repeat)
    # Seconds the server spent in fsync from the window's start to the run's end, on its event loop
    # and in native threads, and how many (bench/fsync_timer): waiting on the disk, not CPU.
    fsync: dict | None = None
    # The server's CPU seconds from the window's start to the run's end (the drain included: a roll
    # queued in the window is handled after it on a starved machine), shared out over every roll
    # it answered; None: only the window's share is known.
    server_cpu_seconds: float | None = None

    @property
    def rolls_answered(self) -> int:
        """Rolls the server handled by the run's end: accepted, and answered after the drain."""
        return self.tally["rolls_accepted"] + self.tally.get("acks_late", 0)

    @property
    def phone_latencies(self) -> list[float]:
        """Every phone view owed, sorted: a view that never came within the drain (a roll dropped,
        refused or never answered, a view late or lost) counts as infinitely slow."""
        missing = self.tally.get("phone_views_missing", 0)
        return sorted(self.tally["phone_latencies_ms"]) + [math.inf] * missing

    def latency(self, p: float) -> float | None:
        return percentile(self.phone_latencies, p)

    @property
    def rolls_dropped(self) -> int:
        """Rolls sent that were never accepted: refused, or not answered within the drain."""
        return self.tally["rolls_sent"] - self.tally["rolls_accepted"]

    @property
    def fsync_ms_per_roll(self) -> float | None:
        """Wall time the server waited on fsync per roll handled (not CPU: the process sleeps)."""
        if not self.fsync or not self.rolls_answered:
            return None
        return 1000 * (self.fsync["loop_seconds"] + self.fsync["thread_seconds"]) / self.rolls_answered

    @property
    def fsync_loop_ms_per_roll(self) -> float | None:
        """Of it, the part on the event loop: every screen waited meanwhile."""
        if not self.fsync or not self.rolls_answered:
            return None
        return 1000 * self.fsync["loop_seconds"] / self.rolls_answered

    @property
    def errors(self) -> int:
        tally = self.tally
        return (len(tally["connect_errors"]) + sum(tally["refusals"].values()) + tally["unanswered"]
                + tally["disconnects"] + self.server_log_problems)

    @property
    def rolls_per_second(self) -> float:
        return self.tally["rolls_accepted"] / self.duration if self.duration else 0.0

    @property
    def server_cpu_ms_per_roll(self) -> float | None:
        """What one roll costs the server's CPU: 1000 / this is its ceiling in rolls per second of one core."""
        if self.server_cpu_seconds is not None:
            return 1000 * self.server_cpu_seconds / self.rolls_answered if self.rolls_answered else None
        return 1000 * self.server_cpu_share / self.rolls_per_second if self.rolls_per_second else None

    def error_breakdown(self) -> str:
        tally = self.tally
        return (f"{len(tally['connect_errors'])} failed connections, {sum(tally['refusals'].values())} refused "
                f"rolls, {tally['unanswered']} rolls not acknowledged within the drain ({tally.get('acks_late', 0)} of them "
                f"later), {tally['disconnects']} dropped "
                f"connections, {self.server_log_problems} error lines in the server log")


def merge_tallies(tallies: list[dict]) -> dict:
    """Sums the counts, concatenates the lists and merges the refusal counts."""
    merged: dict = {}
    for tally in tallies:
        for name, value in tally.items():
            if isinstance(value, dict):
                counts = merged.setdefault(name, {})
                for key, count in value.items():
                    counts[key] = counts.get(key, 0) + count
            elif isinstance(value, list):
                merged.setdefault(name, []).extend(value)
            else:
                merged[name] = merged.get(name, 0) + value
    return merged


def percentile(sorted_values: list[float], p: float) -> float | None:
    """Nearest rank: the smallest value with at least p % of the values at or below it."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    if numerator is None or not denominator:
        return None
    return numerator / denominator


def _num(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "—"
    return "∞" if math.isinf(value) else f"{value:.{digits}f}"


def spread(values: list[float | None], digits: int = 1) -> str:
    """Median (lowest–highest) of the runs' figures."""
    known = [value for value in values if value is not None]
    if not known:
        return "—"
    if len(known) == 1:
        return _num(known[0], digits)
    return f"{_num(statistics.median(known), digits)} ({_num(min(known), digits)}–{_num(max(known), digits)})"


def side_by_side_table(outcomes: list[Outcome]) -> list[str]:
    """Each server under each load over its repeated runs: median and range (issue 29)."""
    lines = ["| load | server | runs | CPU ms/roll | fsync wall ms/roll (on the loop) | p50 ms | p99 ms "
             "| rolls dropped / sent | views lost |",
             "|---|---|---:|---|---|---|---|---|---|"]
    groups: dict[tuple, list[Outcome]] = {}
    for outcome in outcomes:
        groups.setdefault((outcome.load, outcome.kind), []).append(outcome)
    for (load, kind), runs in groups.items():
        fsync = spread([run.fsync_ms_per_roll for run in runs], 3)
        loop = spread([run.fsync_loop_ms_per_roll for run in runs], 3)
        lines.append(f"| {load.label} | {kind} | {len(runs)} | {spread([r.server_cpu_ms_per_roll for r in runs], 2)} "
                     f"| {fsync if fsync == '—' else f'{fsync} ({loop})'} "
                     f"| {spread([r.latency(50) for r in runs])} | {spread([r.latency(99) for r in runs])} "
                     f"| {spread([r.rolls_dropped for r in runs], 0)} / {spread([r.tally['rolls_sent'] for r in runs], 0)} "
                     f"| {spread([r.tally['views_lost'] for r in runs], 0)} |")
    return lines


# Markdown ------------------------------------------------------------------

def latency_table(outcomes: list[Outcome]) -> list[str]:
    lines = ["| load | server | run | phone views | p50 ms | p90 ms | p99 ms | max ms | host p99 ms | ack p50 ms |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for outcome in outcomes:
        host = sorted(outcome.tally["host_latencies_ms"])
        acks = sorted(outcome.tally["ack_latencies_ms"])
        lines.append(f"| {outcome.load.label} | {outcome.kind} | {outcome.run} | {len(outcome.phone_latencies)} "
                     f"| {_num(outcome.latency(50))} | {_num(outcome.latency(90))} | {_num(outcome.latency(99))} "
                     f"| {_num(outcome.latency(100))} | {_num(percentile(host, 99))} "
                     f"| {_num(percentile(acks, 50))} |")
    return lines


def health_table(outcomes: list[Outcome]) -> list[str]:
    lines = ["| load | server | run | screens | rolls accepted (/s) | dropped | resent after 428 | errors | views lost "
             "| late | to dropped screens | views coalesced | versions skipped | server CPU (ms/roll) "
             "| fsync wall ms/roll | peak RSS MB (worker) | client processes (CPU each) |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for outcome in outcomes:
        tally = outcome.tally
        shares = ", ".join(f"{share:.0%}" for share in outcome.client_cpu_shares)
        lines.append(f"| {outcome.load.label} | {outcome.kind} | {outcome.run} | {tally['screens']} "
                     f"| {tally['rolls_accepted']} ({outcome.rolls_per_second:.0f}) | {outcome.rolls_dropped} "
                     f"| {tally.get('rolls_resent', 0)} | {outcome.errors} "
                     f"| {tally['views_lost']} | {tally.get('views_late', 0)} | {tally.get('views_to_dropped', 0)} "
                     f"| {tally['views_coalesced']} | {tally.get('versions_skipped', 0)} "
                     f"| {outcome.server_cpu_share:.0%} ({_num(outcome.server_cpu_ms_per_roll, 2)}) "
                     f"| {_num(outcome.fsync_ms_per_roll, 3)} "
                     f"| {outcome.peak_rss / MB:.0f} ({outcome.peak_worker_rss / MB:.0f}) "
                     f"| {len(outcome.client_cpu_shares)} ({shares}) |")
    return lines


PEERS = ("echo", "bgio")  # the bare Flask-SocketIO stack, boardgame.io's own server


def overhead_table(outcomes: list[Outcome]) -> list[str]:
    """Each Companion run's latency over each peer's, under the same load in the same run."""
    lines = ["| load | server | p50 / echo | p99 / echo | p50 / bgio | p99 / bgio |", "|---|---|---:|---:|---:|---:|"]
    by_key = {(outcome.load.key, outcome.kind): outcome for outcome in outcomes}
    for outcome in outcomes:
        if outcome.kind in PEERS:
            continue
        cells = []
        for peer in PEERS:
            other = by_key.get((outcome.load.key, peer))
            for p in (50, 99):
                cells.append(_num(ratio(outcome.latency(p), other.latency(p)) if other else None, 2))
        lines.append(f"| {outcome.load.label} | {outcome.kind} | " + " | ".join(cells) + " |")
    return lines


def growth_table(outcomes: list[Outcome]) -> list[str]:
    """How each server's p99 and CPU per roll grow with the load (the growth curve: one
    Companion process at 10, 100 and 300 tables; clusterN for N processes)."""
    loads = list(dict.fromkeys(outcome.load for outcome in outcomes))
    lines = ["| server | " + " | ".join(f"{load.label}: p99 ms, CPU ms/roll" for load in loads) + " |",
             "|---|" + "---:|" * len(loads)]
    by_key = {(outcome.load.key, outcome.kind): outcome for outcome in outcomes}
    for kind in dict.fromkeys(outcome.kind for outcome in outcomes):
        cells = []
        for load in loads:
            outcome = by_key.get((load.key, kind))
            cells.append(f"{_num(outcome.latency(99))}, {_num(outcome.server_cpu_ms_per_roll, 2)}"
                         if outcome else "—")
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return lines


def held_table(outcomes: list[Outcome]) -> list[str]:
    """Per server, the largest load it held: p99 < its target, no error and no view lost."""
    lines = ["| server | tables x phones held (p99 < 100 ms, 0 errors, 0 lost) | first load not held |",
             "|---|---|---|"]
    kinds = list(dict.fromkeys(outcome.kind for outcome in outcomes))
    for kind in kinds:
        runs = sorted((o for o in outcomes if o.kind == kind), key=lambda o: o.load.tables * o.load.phones)
        held = [o for o in runs if _held(o)]
        failed = [o for o in runs if not _held(o)]
        best = f"{held[-1].load.tables} x {held[-1].load.phones}" if held else "none measured"
        first_failed = (f"{failed[0].load.tables} x {failed[0].load.phones} (p99 {_num(failed[0].latency(99))} ms, "
                        f"{failed[0].errors} errors, {failed[0].tally['views_lost']} lost)") if failed else "—"
        lines.append(f"| {kind} | {best} | {first_failed} |")
    return lines


def _held(outcome: Outcome) -> bool:
    p99 = outcome.latency(99)
    return (p99 is not None and p99 < outcome.load.p99_target_ms and outcome.errors == 0
            and outcome.tally["views_lost"] == 0 and outcome.tally.get("views_late", 0) == 0
            and outcome.tally["rolls_accepted"] > 0)


def _pairs(outcomes: list[Outcome]):
    by_key = {(outcome.load.key, outcome.kind): outcome for outcome in outcomes}
    for outcome in outcomes:
        echo = by_key.get((outcome.load.key, "echo"))
        if outcome.kind == "companion" and echo:
            yield outcome.load, outcome, echo


def verdict(met: bool, detail: str) -> str:
    return f"met ({detail})" if met else f"**MISSED** ({detail})"


def target_lines(outcomes: list[Outcome]) -> list[str]:
    lines = []
    for outcome in (o for o in outcomes if o.kind not in PEERS):
        load, p99 = outcome.load, outcome.latency(99)
        met = p99 is not None and p99 < load.p99_target_ms
        lines.append(f"- {load.label}: p99 < {load.p99_target_ms:g} ms: "
                     + verdict(met, f"p99 {_num(p99)} ms"))
        if load.tables > 1:
            tally = outcome.tally
            clean = outcome.errors == 0 and tally["views_lost"] == 0 and tally["rolls_accepted"] > 0
            lines.append(f"- {load.label}: no error, no lost roll: "
                         + verdict(clean, f"{outcome.errors} errors, {tally['views_lost']} views lost, "
                                          f"{tally['views_coalesced']} coalesced"))
        rss = outcome.peak_rss / MB
        lines.append(f"- {load.label}: server RSS < {RSS_TARGET_MB} MB: "
                     + verdict(rss < RSS_TARGET_MB, f"peak {rss:.0f} MB, master + worker"))
    for load, companion, echo in _pairs(outcomes):
        for p in (50, 99):
            value = ratio(companion.latency(p), echo.latency(p))
            met = value is not None and value <= OVERHEAD_TARGET
            lines.append(f"- {load.label}: overhead p{p} <= {OVERHEAD_TARGET}: " + verdict(met, f"{_num(value, 2)}×"))
    return lines


def warnings(outcomes: list[Outcome]) -> list[str]:
    lines = []
    for outcome in outcomes:
        busy = [share for share in outcome.client_cpu_shares if share > CLIENT_BUSY_SHARE]
        if busy:
            lines.append(f"- {outcome.load.label} / {outcome.kind}: {len(busy)} client process(es) above "
                         f"{CLIENT_BUSY_SHARE:.0%} of a core: the clients may inflate these latencies.")
        if outcome.errors:
            lines.append(f"- {outcome.load.label} / {outcome.kind}: errors: {outcome.error_breakdown()}.")
        for line in outcome.server_log_sample:
            lines.append(f"  - server log: `{line.strip()[:200]}`")
        samples = outcome.tally.get("lost_samples") or []
        if samples:
            lines.append(f"- {outcome.load.label} / {outcome.kind}: lost views, first {len(samples)} (table, seat, "
                         "roll's version, screen's newest version, s from the ack to its last view, to the end): "
                         + "; ".join(str(tuple(sample)) for sample in samples[:10]))
        refusals = outcome.tally["refusals"]
        if refusals:
            lines.append(f"- {outcome.load.label} / {outcome.kind}: refused rolls: {refusals}")
        if outcome.tally["connect_errors"]:
            lines.append(f"- {outcome.load.label} / {outcome.kind}: connect errors, first: "
                         f"{outcome.tally['connect_errors'][0]}")
    return lines


def markdown(outcomes: list[Outcome], context: dict) -> str:
    lines = [f"Command: `{context['command']}` (commit {context['commit']})", "",
             f"Machine: {context['nproc']} cores, {context['cpu']}, Python {context['python']}; "
             f"load average before {context['load_before']}, after {context['load_after']}; "
             f"{context['when']}; {context['duration']:g} s of rolling, 1 roll per phone per "
             f"{context['period']:g} s at a random phase.", "",
             "Latency: from the roller's tap (its schedule) to the arrival of the `view` carrying that roll, "
             "on every phone of the table (the host screen apart); a phone's actions go one at a time, and a roll "
             "answered 428 is sent again with the phone's next chain value: both are in the latency.", "",
             "Side by side (median and range over the runs; runs of the servers interleaved; a phone view that "
             "never came within the drain, of a roll dropped or a view lost, counts as infinitely slow, ∞; "
             "CPU: the server's processes' user + system time from the rolling window's start to the run's end "
             "(a roll queued in the window may be handled in the drain), per roll handled (accepted, or answered "
             "after the drain); fsync: wall time the server waited on fsync per roll handled, not CPU, and in "
             "brackets the part on the event loop):", "", *side_by_side_table(outcomes), "",
             "Each run:", "", *latency_table(outcomes), "", *health_table(outcomes), "",
             "Errors: failed connections, refused or unacknowledged rolls, dropped connections, error lines "
             "in the server log. Views lost: accepted rolls that a screen of their table (phones and host), "
             "connected to the end, never showed: neither the roll's view nor any later one (a view is the whole "
             "table) arrived, even after waiting up to the settle time; late: arrived after the drain, during the "
             "settle time; to dropped screens: owed to a screen whose connection dropped (a phone that reconnects "
             "gets its table's current view); coalesced: shown only by a later view (its history or a newer table "
             "version); versions skipped: table versions a screen connected throughout never received between "
             "its first and newest view. Latency percentiles are over every phone view owed: one that never came "
             "within the drain counts as infinitely slow. Dropped: rolls sent and never accepted (refused, or not "
             "answered within the drain). "
             "Server CPU: share of one core over the rolling window, and per roll handled (see above).", "",
             "Overhead (Companion's latency over the bare echo server's and boardgame.io's, same load; with "
             "--repeat, the last run of each):",
             "", *overhead_table(outcomes), "",
             "Growth (each server's p99 and server CPU per accepted roll, by load):", "",
             *growth_table(outcomes), "",
             "Held (the largest load measured that met p99 < 100 ms with no error and no view lost):", "",
             *held_table(outcomes), "",
             "Targets:", "", *target_lines(outcomes)]
    notes = warnings(outcomes) + [f"- run failed: {failure}" for failure in context.get("failed", [])]
    if notes:
        lines += ["", "Warnings:", "", *notes]
    return "\n".join(lines) + "\n"
