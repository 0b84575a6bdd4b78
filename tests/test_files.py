"""whist_solve.files.replace_file: whole or not at all."""
from __future__ import annotations

import os
import stat

import pytest

from whist_solve.files import replace_file


def test_a_new_file_gets_the_usual_mode(tmp_path):
    path = tmp_path / "new.txt"
    old = os.umask(0o027)
    try:
        replace_file(str(path), b"text")
    finally:
        os.umask(old)
    assert path.read_bytes() == b"text"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_an_old_file_keeps_its_mode(tmp_path):
    path = tmp_path / "old.txt"
    path.write_bytes(b"old")
    path.chmod(0o600)
    replace_file(path, b"new")
    assert path.read_bytes() == b"new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_link_s_target_is_replaced_not_the_link(tmp_path):
    target = tmp_path / "target.txt"
    target.write_bytes(b"old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    replace_file(link, b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"


def test_a_failed_write_leaves_the_old_file_and_nothing_else(tmp_path, monkeypatch):
    path = tmp_path / "page.html"
    path.write_bytes(b"old")

    def fail(*args):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="No space"):
        replace_file(path, b"new")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs /dev/null")
def test_a_device_is_written_as_it_is():
    replace_file("/dev/null", b"gone")          # not replaced by a regular file
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
