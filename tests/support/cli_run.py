"""Running the command line in-process for the tests (Typer's CliRunner)."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from whist_solve.cli.main import app


def _runner():
    try:  # Click < 8.2 mixes stderr into the output unless told not to
        return CliRunner(mix_stderr=False)
    except TypeError:
        return CliRunner()


def run(args, input=None, env=None):
    """whist-solve ARGS..., with `input` as standard input (and `env` added
    to the environment)."""
    return _runner().invoke(app, args, input=input, env=env, catch_exceptions=False)


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
