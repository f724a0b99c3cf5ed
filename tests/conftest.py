"""Test-wide settings.

Property tests explore new random examples on a developer's machine; under CI (``CI`` set,
as ``.ci/run`` does) they replay a fixed sequence so that a red CI always reproduces.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
