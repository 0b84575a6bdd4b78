"""Which threads call a function: for tests of work shared among threads."""
from __future__ import annotations

import threading


def threads_calling(monkeypatch, module, name: str) -> set:
    """Replace ``module.name`` by a wrapper that records the calling
    thread; return the (growing) set of thread ids."""
    seen: set = set()
    real = getattr(module, name)

    def spy(*args, **kwargs):
        seen.add(threading.get_ident())
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return seen
