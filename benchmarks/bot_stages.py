"""Where the bot process's CPU goes, by stage, from a py-spy sample of a tables run.

The bot process of ``benchmarks/tables.py`` runs the bot, the fake Discord and the driver on
one event loop. py-spy samples it from outside (no profiler inside inflating small calls, as
cProfile does), only while a thread holds the GIL, and this script files each sample under the
first stage its stack passes through::

    pip install py-spy
    python benchmarks/tables.py --tables 200 --warmup 5 --measure 60 &
    sleep 30; py-spy record -p <pid of that python> -d 30 -r 200 --gil -f raw -o spy.txt
    python benchmarks/bot_stages.py spy.txt
"""

from __future__ import annotations

import sys
from collections import Counter

#: (stage, any of these frame fragments), checked in order: the first that matches wins
STAGES = (
    ("interaction parsing (discord.py)", ("parse_interaction_create",)),
    (
        "fake Discord and driver (not the bot)",
        ("tables_driver.py", "Clock.on_request", "FakeServer", "LeanDiscord"),
    ),
    ("autocomplete", ("_invoke_autocomplete",)),
    ("move: the service (engine, storage, outcome)", ("submit (app/matches.py",)),
    ("move: the turn message (picture asked, built, sent)", ("post_outcome",)),
    ("move: the rest (parse, follower step, 'Done')", ("_typed_answer", "place (bot")),
    ("SQLite's thread (aiosqlite)", ("aiosqlite", "sqlite3")),
    ("replay animation asked and posted", ("_post_animation",)),
    ("drawing workers' answers read (multiprocessing)", ("multiprocessing",)),
    ("garbage collection callbacks", ("GcTimes",)),
    ("the event loop's own work", ("_run_once",)),
)


def main(path: str) -> None:
    by: Counter[str] = Counter()
    leaves: Counter[str] = Counter()
    total = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            stack, _, count = line.rstrip().rpartition(" ")
            if not stack:
                continue
            n = int(count)
            total += n
            stage = next((s for s, keys in STAGES if any(k in stack for k in keys)), "other")
            by[stage] += n
            if stage in ("other", "the event loop's own work"):
                leaves[stack.split(";")[-1].split(" (")[0]] += n
    print(f"{total} samples holding the GIL")
    bot = total - by["fake Discord and driver (not the bot)"]
    for stage, n in by.most_common():
        share = f"{100 * n / bot:5.1f} % of the bot's" if not stage.startswith("fake") else " " * 19
        print(f"  {100 * n / total:5.1f} %  {share}  {stage}")
    print("  the loop's own work and the rest, by innermost function:")
    for leaf, n in leaves.most_common(8):
        print(f"    {100 * n / total:5.1f} %  {leaf}")


if __name__ == "__main__":
    main(sys.argv[1])
