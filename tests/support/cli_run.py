"""Running the command line in-process for the tests (Typer's CliRunner)."""
from __future__ import annotations

import json

import pytest

typer_testing = pytest.importorskip("typer.testing")
main_mod = pytest.importorskip("whist_solve.cli.main")
app = main_mod.app


def _runner():
    try:  # Click < 8.2 mixes stderr into the output unless told not to
        return typer_testing.CliRunner(mix_stderr=False)
    except TypeError:
        return typer_testing.CliRunner()


def run(args, input=None):
    """whist-solve ARGS..., with `input` as standard input."""
    return _runner().invoke(app, args, input=input, catch_exceptions=False)


def json_lines(result):
    """The JSON objects a --json run printed, one per line."""
    return [json.loads(ln) for ln in result.stdout.splitlines() if ln.strip()]


def board(label, deal, *tags, play=None):
    """The PBN text of one board: its Board and Deal tags, the other tags
    given (whole lines), then a Play section if any."""
    text = f'[Board "{label}"]\n[Deal "{deal}"]\n'
    for t in tags:
        text += t + "\n"
    if play:
        text += play + "\n"
    return text + "\n"
