"""The drawing workers' warm-up: a game of every expansion to draw, and no failure at start-up."""

from __future__ import annotations

import pytest

from rendering import worker


def test_the_sample_game_plays_every_expansion_to_its_end() -> None:
    first, middle, last = worker.sample_views()
    assert last.over and not first.over
    assert len(first.tiles) < len(middle.tiles) < len(last.tiles)
    assert {e for e in last.setup.expansions} >= {"inns_cathedrals", "traders_builders"}


def test_a_failing_warm_up_does_not_stop_the_start(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: object, **kwargs: object) -> bytes:
        raise RuntimeError("no font")

    monkeypatch.setattr(worker, "warm_up", lambda: 0)
    monkeypatch.setattr(worker, "render_board", broken)
    assert worker.warm() >= 0
    assert "warming up for drawing failed" in caplog.text
