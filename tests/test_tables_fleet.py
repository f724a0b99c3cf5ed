"""The merging of benchmarks/tables.py's ``--processes`` run: every process's window pooled into
one (percentiles over all samples, CPU summed per kind), carried between processes as JSON."""

from __future__ import annotations

import asyncio
import json
import os

from benchmarks.tables_driver import Stats, _proc_cpu
from benchmarks.tables_fleet import (
    Step,
    merge_steps,
    pct,
    ramp,
    server_cpu,
    share,
    step_from_json,
    step_to_json,
    verdict,
)


def _step(tables: int, boards: list[float], cpu_bot: float, wall: float, **kw: float) -> Step:
    stats = Stats()
    for b in boards:
        stats.add("board", b)
        stats.add("autocomplete", b / 10)
    stats.moves = len(boards)
    stats.tiles = [30] * len(boards)
    stats.busy = 1
    cpu = {"cpu_driver": 0.1, "cpu_gateway": 0.05, "cpu_workers": 2.0, "cpu_animations": 0.5}
    cpu.update(kw)
    return Step(tables, stats, cpu_bot, wall=wall, load=9.0, **cpu)


def test_percentiles_are_over_every_process_sample_not_an_average_of_theirs() -> None:
    slow = _step(50, [0.01] * 90 + [2.0] * 10, cpu_bot=1.0, wall=20.2)
    fast = _step(50, [0.01] * 100, cpu_bot=3.0, wall=20.0)
    merged = merge_steps([slow, fast], cpu_server=0.7, load=1.5)
    pooled = slow.stats.times["board"] + fast.stats.times["board"]
    assert merged.stats.times["board"] == pooled
    assert merged.p99 == pct(pooled, 0.99) * 1000 == 2000.0
    assert pct(pooled, 0.9) == 0.01  # 10 slow moves of 200: the pooled p90 is fast
    assert (slow.p99 + fast.p99) / 2 != merged.p99
    assert len(merged.stats.times["autocomplete"]) == 200


def test_counts_and_cpu_are_summed_the_server_and_load_are_the_parents() -> None:
    a = _step(34, [0.1] * 10, cpu_bot=1.0, wall=20.0, cpu_workers=4.0)
    b = _step(33, [0.2] * 5, cpu_bot=2.0, wall=20.3)
    b.stats.errors.append("table 1000001: boom")
    m = merge_steps([a, b], cpu_server=0.7, load=1.5)
    assert (m.tables, m.stats.moves, m.stats.busy, len(m.stats.tiles)) == (67, 15, 2, 15)
    assert (m.cpu_bot, m.cpu_workers, m.cpu_animations) == (3.0, 6.0, 1.0)
    assert (m.cpu_driver, m.cpu_gateway) == (0.2, 0.1)
    assert (m.cpu_server, m.load, m.wall) == (0.7, 1.5, 20.3)
    assert m.stats.errors == ["table 1000001: boom"] and not m.held(500)


def test_a_window_crosses_between_processes_as_json_unchanged() -> None:
    s = _step(10, [0.25, 0.5], cpu_bot=1.5, wall=20.0, cpu_server=0.0)
    s.stats.errors.append("x")
    back = step_from_json(json.loads(json.dumps(step_to_json(s))))
    assert back == s
    back.stats.add("replay", 1.0)  # still a defaultdict of lists, as the driver fills it
    assert back.stats.times["replay"] == [1.0]


def test_shares_cover_the_tables_evenly() -> None:
    for n in (0, 1, 99, 100, 101):
        for processes in (1, 2, 3):
            parts = [share(n, processes, i) for i in range(processes)]
            assert sum(parts) == n and max(parts) - min(parts) <= 1


def test_the_end_check_in_words() -> None:
    assert verdict(98, 2, []) == (
        "moves checked on 98 boards (2 in a lobby): every move made exactly once"
    )
    assert verdict(1, 0, ["table 3: 5 tiles placed, players made 4"]).endswith("made 4")


def test_a_server_counts_its_main_process_and_its_children() -> None:
    me = os.getpid()
    assert server_cpu(me) >= _proc_cpu(me)


def test_the_ramp_stops_at_the_first_count_that_fails_then_bisects_on_fresh_bots() -> None:
    """Capacity 610 tables: the ramp 250, 500, 750 fails at 750, then halves [500, 750]."""
    calls: list[tuple[int, bool]] = []

    async def measure(n: int, fresh: bool) -> Step:
        calls.append((n, fresh))
        return _step(n, [0.1 if n <= 610 else 0.9] * 10, cpu_bot=1.0, wall=20.0)

    held = asyncio.run(ramp([250, 500, 750, 1000], 3, 500.0, measure))
    # three bisections: 625 fails, 562 holds, 593 holds
    assert calls == [
        (250, False),
        (500, False),
        (750, False),
        (625, True),
        (562, True),
        (593, True),
    ]
    assert held == 593
    calls.clear()
    assert asyncio.run(ramp([750], None, 500.0, measure)) is None  # one count, no search
    assert calls == [(750, False)]
    assert asyncio.run(ramp([250], None, 500.0, measure)) == 250
