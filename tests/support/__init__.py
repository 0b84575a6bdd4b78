"""Helpers of the tests: the independent reference minimax (``reference``,
which imports nothing from whist_solve), Hypothesis strategies of positions
(``strategies``), the engine-against-reference check (``engine_check``), the
command line run in-process (``cli_run``), DDS through endplay
(``dds_helpers``; importing it skips the test module when endplay is not
installed), the node-count signature (``signature``), a real Dask cluster
(``cluster``), the process-pool watch (``procs``) and the markers for
optional dependencies (``needs_dds``)."""
import importlib.util
from pathlib import Path

import pytest

# The checkout, the test data and the committed benchmark sets.
ROOT = Path(__file__).resolve().parent.parent.parent
TEST_DATA = ROOT / "tests" / "data"
BENCH_DATA = ROOT / "benchmarks" / "data"

# The one place that says how a test needing DDS (endplay) is skipped.
HAVE_DDS = importlib.util.find_spec("endplay") is not None
needs_dds = pytest.mark.skipif(not HAVE_DDS, reason="needs endplay (DDS): pip install endplay")
