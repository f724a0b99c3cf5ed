"""The words every front end shares (Discord, the console, the tools): the catalogues by
language, and how seats, tiles, places, decisions and scores are put in words. No Discord in
them (tests/test_import_boundaries.py)."""
