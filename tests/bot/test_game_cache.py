from __future__ import annotations

from bot.services.cache import GameCache


def test_keeps_one_version_per_match_and_evicts_the_least_recent() -> None:
    c: GameCache[str] = GameCache(2)
    c.put(1, 5, "m1v5")
    c.put(1, 6, "m1v6")
    assert c.get(1, 5) is None and c.get(1, 6) == "m1v6" and len(c) == 1
    c.put(2, 1, "m2")
    assert c.get(1, 6) == "m1v6"  # touch match 1: match 2 is now the least recent
    c.put(3, 1, "m3")
    assert c.get(2, 1) is None and c.get(1, 6) == "m1v6" and c.get(3, 1) == "m3"
    c.drop(3, 1)
    assert c.get(3, 1) is None
