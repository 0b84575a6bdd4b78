"""A real Dask cluster for the tests: a ``LocalCluster`` of two worker
processes with one thread each, on the loopback interface only, no
dashboard.  The one place that says how a test needing ``distributed`` is
skipped (the ``cluster`` fixture in tests/conftest.py uses it)."""
from __future__ import annotations

import importlib.util

import pytest

HAVE_DASK = importlib.util.find_spec("distributed") is not None
needs_dask = pytest.mark.skipif(not HAVE_DASK, reason="needs dask[distributed]: "
                                                      "pip install '.[cluster]'")


def start_cluster():
    """(LocalCluster, Client) of two single-thread worker processes on
    127.0.0.1; skips the test when distributed is not installed."""
    if not HAVE_DASK:
        pytest.skip("needs dask[distributed]: pip install '.[cluster]'")
    import distributed
    lc = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address="127.0.0.1:0")
    client = distributed.Client(lc.scheduler_address, set_as_default=False)
    return lc, client


def wait_workers(client, n: int = 2) -> None:
    client.wait_for_workers(n, timeout=60)
