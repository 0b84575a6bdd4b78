"""Watching a process pool from outside (psutil): the tests that send a
signal to a command running a pool and then look for workers left behind."""
from __future__ import annotations

import time


def pool_children(psutil, pid: int, n: int = 2, timeout: float = 30, settle: float = 0.3):
    """The descendants of process ``pid`` once it has at least ``n`` (its
    pool has started), read again after ``settle`` seconds so that the
    workers are in their tasks; fails the test if the pool has not started
    within ``timeout`` seconds."""
    parent = psutil.Process(pid)
    deadline = time.monotonic() + timeout
    children = []
    while len(children) < n:
        assert time.monotonic() < deadline, "the pool did not start"
        time.sleep(0.1)
        children = parent.children(recursive=True)
    time.sleep(settle)
    return parent.children(recursive=True)
