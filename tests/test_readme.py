"""The README is tested, so that its examples cannot drift from the program:

* every ``whist-solve`` command of its ``sh`` blocks runs as written (in a
  scratch folder holding copies of ``examples/`` and ``puzzles/``) and ends
  with a documented status and no traceback;
* every ``python`` block runs;
* the outputs it shows (the solve panel and JSON of board 4, the tables of
  board 4, a deal, the par line, the review verdict, the lead simulation's
  JSON) are what the program prints today.

Commands that need what a test cannot give (a cluster address, ``pip``,
the benchmark sets' long runs, an interactive terminal) are named in
``NOT_RUN`` with the reason.
"""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys

import pytest

from support import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")

# Lines of the sh blocks that are not run here, and why.
NOT_RUN = (
    ("pip ", "installs the package"),
    ("dask ", "starts a cluster"),
    ("--scheduler", "needs a cluster address of the reader's"),
    ("whist-solve bench", "runs the benchmark sets (the benchmarks/ tests run them)"),
    ("archive/", "a folder of the reader's"),
)


def fenced():
    """(language, text) of every fenced block of the README, in order."""
    out, lang, body = [], None, []
    for line in README.splitlines():
        if line.startswith("```"):
            if lang is None:
                lang, body = line[3:].strip(), []
            else:
                out.append((lang, "\n".join(body)))
                lang = None
        elif lang is not None:
            body.append(line)
    return out


def blocks(lang: str):
    return [text for kind, text in fenced() if kind == lang]


def commands():
    out = []
    for block in blocks("sh"):
        for line in block.splitlines():
            line = line.split("  #", 1)[0].strip()
            if "whist-solve" not in line or line.startswith("#"):
                continue
            if any(key in line for key, _ in NOT_RUN):
                continue
            out.append(line)
    return out


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """A folder with copies of the shipped files and a ``whist-solve`` on
    PATH that runs this checkout's package with this Python."""
    d = tmp_path_factory.mktemp("readme")
    for sub in ("examples", "puzzles"):
        shutil.copytree(ROOT / sub, d / sub)
    bin_dir = d / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "whist-solve"
    exe.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m whist_solve.cli.main "$@"\n')
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return d


def shell(scratch, line: str, stdin: str = "quit\n", extra_env=None):
    env = dict(os.environ, PATH=f"{scratch / 'bin'}{os.pathsep}{os.environ['PATH']}",
               COLUMNS="80", NO_COLOR="1", TERM="dumb")
    env.pop("WHIST_SOLVE_DEBUG", None)
    env.update(extra_env or {})
    return subprocess.run(["bash", "-c", line], cwd=scratch, input=stdin, capture_output=True,
                          text=True, env=env, timeout=300)


def test_the_readme_has_commands():
    assert len(commands()) >= 20


@pytest.mark.parametrize("line", commands())
def test_readme_command_runs_as_written(scratch, line):
    r = shell(scratch, "set -o pipefail; " + line)
    assert r.returncode in (0, 1), (line, r.returncode, r.stderr[-2000:])
    assert "Traceback" not in r.stderr, (line, r.stderr[-2000:])


@pytest.mark.parametrize("index", range(len(blocks("python"))))
def test_readme_python_block_runs(index, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    exec(compile(blocks("python")[index], f"README python block {index + 1}", "exec"),
         {"__name__": "readme"})


def _panel(text: str, title: str) -> str:
    """The rich panel of ``text`` whose top line holds ``title``."""
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("╭") and title in ln)
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("╰"))
    return "\n".join(ln.rstrip() for ln in lines[start:end + 1])


def _readme_block(first_line_part: str) -> str:
    for block in blocks(""):
        if block and first_line_part in block.splitlines()[0]:
            return block.rstrip("\n")
    raise AssertionError(f"no README block starting with {first_line_part!r}")


def test_solve_panel_of_board_4_is_as_shown(scratch):
    r = shell(scratch, "whist-solve examples/deal.pbn")
    shown = "\n".join(ln.rstrip() for ln in _readme_block("Board 4  examples/deal.pbn").splitlines())
    assert _panel(r.stdout, "Board 4") == shown


def _board_4_json(scratch, command):
    """The fourth JSON line (board 4) that ``command`` prints."""
    return json.loads(shell(scratch, command).stdout.splitlines()[3])


def _shown_json(key):
    """The README's first JSON block holding ``key``."""
    return next(json.loads(b) for b in blocks("json") if key in b)


def test_solve_json_of_board_4_is_as_shown(scratch):
    actual = _board_4_json(scratch, "whist-solve examples/deal.pbn --json")
    shown = _shown_json('"line"')
    assert actual == shown


def test_tables_of_board_4_are_as_shown(scratch):
    r = shell(scratch, "whist-solve table examples/deal.pbn")
    panel = _panel(r.stdout, "Board 4").splitlines()
    inner = [ln[2:].rstrip().rstrip("│").rstrip() for ln in panel[1:-1]]
    shown = _readme_block("Uptown (up)").splitlines()
    start = inner.index("Uptown (up)")
    assert inner[start:start + len(shown)] == shown
    table = _board_4_json(scratch,
                          "whist-solve table --ranking both --strain NT,S examples/deal.pbn --json")
    shown_json = _shown_json('"tricks_total"')
    assert table == shown_json


def test_par_line_is_as_shown(scratch):
    r = shell(scratch, "whist-solve table examples/deal.pbn")
    shown = " ".join(_readme_block("Par +").split())
    assert shown in " ".join(r.stdout.replace("│", " ").split())


def test_deal_is_as_shown(scratch):
    r = shell(scratch, "whist-solve deal --variant bid --count 1 --seed 1")
    shown = _readme_block('[Board "1"]')
    assert shown in r.stdout


def test_review_verdict_is_as_shown(scratch):
    r = shell(scratch, "whist-solve review --json examples/played.pbn")
    verdict = json.loads(r.stdout)["verdict"]
    assert " ".join(verdict.split()) in " ".join(README.split())


def test_lead_simulation_json_is_as_shown(scratch):
    """The JSON of the lead board of examples/simulate.pbn (shortened in the
    README to one card: that card's entry and every other field must be
    what the program prints)."""
    text = (scratch / "examples" / "simulate.pbn").read_text(encoding="utf-8")
    games = text.split("\n\n")
    lead = next(g for g in games if '[Board "lead"]' in g)
    (scratch / "lead.pbn").write_text(lead + "\n", encoding="utf-8")
    actual = json.loads(shell(scratch, "whist-solve simulate lead.pbn --json --jobs 1").stdout)
    shown = _shown_json('"question": "lead"')
    assert shown["cards"] and set(shown["cards"]) <= set(actual["cards"])
    for card, entry in shown["cards"].items():
        assert actual["cards"][card] == entry
    # (run here from a file of its own: "file" names it)
    assert actual["file"] == "lead.pbn" and shown["file"] == "examples/simulate.pbn"
    assert {k: v for k, v in actual.items() if k not in ("cards", "file")} == \
        {k: v for k, v in shown.items() if k not in ("cards", "file")}
