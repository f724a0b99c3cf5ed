from __future__ import annotations

from app.cache import GameCache, PictureCache


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


def test_bytes_bound_evicts_the_least_recent_games_by_their_weight() -> None:
    c: GameCache[str] = GameCache(100, max_bytes=10, weigh=len)
    c.put(1, 1, "aaaa")
    c.put(2, 1, "bbbb")
    assert c.bytes == 8 and len(c) == 2
    c.put(1, 2, "aaaaa")  # a new version replaces the old one's weight
    assert c.bytes == 9 and c.get(1, 1) is None and c.get(1, 2) == "aaaaa"
    c.put(3, 1, "cc")  # 11 bytes: the least recently used (match 2) goes
    assert c.get(2, 1) is None and c.bytes == 7 and len(c) == 2
    c.put(4, 1, "x" * 50)  # heavier than the budget alone: kept, everything else goes
    assert len(c) == 1 and c.get(4, 1) is not None
    c.drop(4, 1)
    assert c.bytes == 0 and len(c) == 0


def test_a_stale_drop_keeps_the_newer_version() -> None:
    c: GameCache[str] = GameCache(4)
    c.put(1, 2, "new")
    c.drop(1, 1)
    assert c.get(1, 2) == "new"


def test_many_matches_each_keep_one_entry() -> None:
    c: GameCache[int] = GameCache(5000)
    for version in range(3):
        for match in range(4000):
            c.put(match, version, version)
    assert len(c) == 4000 and all(c.get(m, 2) == 2 for m in range(0, 4000, 97))


def test_picture_cache_keeps_the_newest_picture_of_each_match_within_its_bytes() -> None:
    c = PictureCache(max_items=3, max_bytes=100)
    c.put((1, 5), b"a" * 40)
    c.put((1, 6), b"b" * 40)  # match 1's older picture is never asked for again
    assert c.get((1, 5)) is None and c.get((1, 6)) == b"b" * 40 and c.bytes == 40
    c.put((2, 1, "es"), b"c" * 40)
    assert c.get((2, 1, "en")) is None and c.get((2, 1, "es")) is not None
    c.get((1, 6))  # touch match 1: match 2 is now the least recent
    c.put((3, 1), b"d" * 40)  # 120 bytes: match 2 goes
    assert c.get((2, 1, "es")) is None and c.bytes == 80 and len(c) == 2
    c.put((4, 1), b"e" * 101)  # bigger than the whole budget: not kept
    assert c.get((4, 1)) is None and c.bytes == 80
    for m in range(5, 9):
        c.put((m, 1), b"f")
    assert len(c) == 3  # and at most max_items


def test_picture_cache_keeps_every_kind_of_the_newest_version_only() -> None:
    c = PictureCache(max_items=10, max_bytes=1000)
    c.put((1, 5, "en", False), b"t" * 10)  # the turn picture
    c.put((1, 5, "en", True), b"w" * 20)  # the whole map of the same version
    assert c.get((1, 5, "en", False)) == b"t" * 10 and c.get((1, 5, "en", True)) == b"w" * 20
    assert c.bytes == 30 and len(c) == 1
    c.put((1, 5, "en", True), b"W" * 25)  # drawn again: replaced, not added
    assert c.bytes == 35
    c.put((1, 6, "en", False), b"n" * 5)  # a new version: the old one's pictures go
    assert c.get((1, 5, "en", False)) is None and c.get((1, 5, "en", True)) is None
    assert c.bytes == 5 and c.get((1, 6, "en", False)) == b"n" * 5
