"""Shared test setup.

* the helpers live in the package ``tests/support`` (importable as
  ``support`` through pytest's ``pythonpath`` option in pyproject.toml);
* when the package is not installed (``pip install -e .``), exposes
  ``solver/`` as the bare package ``whist_solve`` so the pure-Python parts
  (``whist_solve.cards``) can still be tested; the engine needs the build;
* Hypothesis profiles: ``default`` (no deadline: the reference is slow) and
  ``thorough``; pick one with ``HYPOTHESIS_PROFILE=thorough``.  Example counts
  are set per test and scaled by ``WHIST_TEST_SCALE``.
"""
from __future__ import annotations

import importlib.util
import os
import sys
import types

import pytest
from hypothesis import HealthCheck, settings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

if importlib.util.find_spec("whist_solve") is None:  # not installed: use solver/ in place
    _dir = os.path.join(ROOT, "solver")
    _spec = importlib.util.spec_from_file_location(
        "whist_solve", os.path.join(_dir, "__init__.py"), submodule_search_locations=[_dir])
    _pkg = importlib.util.module_from_spec(_spec)
    sys.modules["whist_solve"] = _pkg
    try:
        _spec.loader.exec_module(_pkg)
    except Exception:  # e.g. the engine is not built: keep the pure-Python modules usable
        _pkg = types.ModuleType("whist_solve")
        _pkg.__path__ = [_dir]
        sys.modules["whist_solve"] = _pkg

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile(
    "thorough",
    parent=settings.get_profile("default"),
    max_examples=1000,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session")
def shared_solver():
    """One engine Solver reused across many positions (exercises the reuse of
    its transposition table across different deals, trumps and rankings)."""
    from whist_solve import Solver
    return Solver()


@pytest.fixture(scope="session")
def cluster():
    """A real Dask LocalCluster (two worker processes of one thread each,
    loopback only): (scheduler address, a Client of it).  Shared by the
    whole run; skipped without dask[distributed] (tests/support/cluster.py)."""
    from support.cluster import start_cluster
    lc, client = start_cluster()
    try:
        yield lc.scheduler_address, client
    finally:
        client.close()
        lc.close()


@pytest.fixture(autouse=True)
def _signals_reach_children():
    """Each test starts with Ctrl-C and hang-up handled as Python does by
    default.  A process inherits an ignored signal from its parent and
    keeps it: a test run started in the background of a shell without job
    control (SIGINT ignored) or under ``nohup`` (SIGHUP ignored) would
    start every command of the tests that send those signals deaf to them,
    and the command line rightly keeps ignoring what it was started
    ignoring: those tests would wait for an exit that never comes."""
    import signal
    import threading
    if threading.current_thread() is threading.main_thread():
        if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        if hasattr(signal, "SIGHUP") and signal.getsignal(signal.SIGHUP) is signal.SIG_IGN:
            signal.signal(signal.SIGHUP, signal.SIG_DFL)
    yield
