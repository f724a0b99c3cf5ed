"""The collector freezes what survives into its oldest generation (a collection of the middle
or the oldest one), and the periodic full collection still frees cyclic garbage that was
frozen."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot import gcpause


@pytest.fixture
def frozen() -> Iterator[None]:
    gcpause.freeze_survivors()
    try:
        yield
    finally:
        gcpause.release()


class Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the collector frees it


def test_survivors_of_a_full_collection_are_frozen(frozen: None) -> None:
    assert gc.get_freeze_count() > 0
    kept = [Node() for _ in range(1000)]
    before = gc.get_freeze_count()
    gc.collect()  # a full collection: what survives it is frozen
    assert gc.get_freeze_count() >= before + len(kept)
    gcpause.freeze_survivors()  # idempotent
    assert gc.callbacks.count(gcpause._freeze_promoted) == 1


def test_survivors_of_a_middle_collection_are_frozen_and_young_ones_wait(frozen: None) -> None:
    """A table's view and decisions live until its next move: frozen once they outlive the
    middle generation, a full collection does not walk them again and again."""
    gc.collect(0)
    young = [Node() for _ in range(1000)]
    before = gc.get_freeze_count()
    gc.collect(0)  # a young collection: survivors move on, nothing frozen
    assert gc.get_freeze_count() == before
    gc.collect(1)  # the middle generation: its survivors are frozen
    assert gc.get_freeze_count() >= before + len(young)
    assert gc.get_count()[0] < 50 and len(gc.get_objects(2)) < 50  # walked by nobody


def test_frozen_cyclic_garbage_is_freed_by_the_periodic_full_collection(frozen: None) -> None:
    cycles = [Node() for _ in range(500)]
    gc.collect()  # frozen now
    del cycles  # unreachable, but frozen: an ordinary collection does not see them
    assert gc.collect() < 500
    found, took = gcpause.full_collection()
    assert found >= 500 and took >= 0
    assert gc.get_freeze_count() > 0  # the survivors are frozen again


def test_release_gives_the_collector_back() -> None:
    gcpause.freeze_survivors()
    gcpause.release()
    assert gc.get_freeze_count() == 0 and gcpause._freeze_promoted not in gc.callbacks
