"""The ``carcabot`` command and its offline tools (replay, simulate, render, sync)."""
