"""The solve and puzzles panels are drawn line by line (render.LaidPanel);
what a person sees must stay what rich's own Panel/Table layout draws:
the same characters and the same styles, at any width, with rich's
layout kept for what the line-by-line drawing does not handle."""
from __future__ import annotations

import pytest
from rich.text import Text

from whist_solve.cli import render

from support import ROOT
from support.cli_run import board, run

# `whist-solve solve ending.pbn` as it was drawn by rich's Panel/Table layout.
ONE_CARD_ENDING = (
    '╭─ Board 1  ending.pbn ──────────────────────────────────────────────╮\n'
    '│ Trump ♠ spades · uptown · N to lead                                │\n'
    '│ North to play.                                                     │\n'
    '│                                                                    │\n'
    '│                North (to play)                                     │\n'
    '│                ♠ —                                                 │\n'
    '│                ♥ 7                                                 │\n'
    '│                ♦ —                                                 │\n'
    '│                ♣ —                                                 │\n'
    '│ West                             East                              │\n'
    '│ ♠ —                              ♠ 5                               │\n'
    '│ ♥ —            N leads           ♥ —                               │\n'
    '│ ♦ —                              ♦ —                               │\n'
    '│ ♣ Q                              ♣ —                               │\n'
    '│                South                                               │\n'
    '│                ♠ —                                                 │\n'
    '│                ♥ 2                                                 │\n'
    '│                ♦ —                                                 │\n'
    '│                ♣ —                                                 │\n'
    '│                                                                    │\n'
    '│ N-S take 0 of the 1 trick from here; E-W take 1.                   │\n'
    '│                                                                    │\n'
    "│ North's cards                                                      │\n"
    '│ N-S tricks            cards                                        │\n'
    '│ ───────────────────────────                                        │\n'
    '│          0   ★ best   ♥7                                           │\n'
    '│                                                                    │\n'
    '│ Best line                                                          │\n'
    '│ trick   lead   N      E      S      W      won by   N-S   E-W      │\n'
    '│ ─────────────────────────────────────────────────────────────      │\n'
    '│     1    N     >♥7    ♠5     ♥2     ♣Q       E        0     1      │\n'
    '│ No card along this line changes the result: every choice is equal. │\n'
    '│ > leads, underline wins the trick                                  │\n'
    '╰────────────────────────────────────────────────────────────────────╯\n'
)


def _rich_layout(self, console, options):
    yield self.panel()


def _both(monkeypatch, args, env):
    """The output of ``args`` drawn line by line, and drawn by rich."""
    laid = run(args, env=env)
    with monkeypatch.context() as m:
        m.setattr(render.LaidPanel, "__rich_console__", _rich_layout)
        whole = run(args, env=env)
    assert laid.exit_code == whole.exit_code == 0, laid.stderr
    return laid.stdout, whole.stdout


def _cells(text: str):
    """Each line as (character, style) pairs; the style of a blank cell is
    left out unless it shows (underline, reverse, a background)."""
    out = []
    for line in text.split("\n"):
        t = Text.from_ansi(line)
        styles = [""] * len(t.plain)
        for span in t.spans:
            for i in range(span.start, span.end):
                styles[i] += "|" + str(span.style)
        row = []
        for ch, st in zip(t.plain, styles):
            if ch == " " and not any(v in st for v in ("underline", "reverse", " on ")):
                st = ""
            row.append((ch, st))
        while row and row[-1] == (" ", ""):
            row.pop()
        out.append(row)
    return out


def test_one_card_ending_plain_text_unchanged(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ending.pbn").write_text(
        board("1", "N:.7.. 5... .2.. ...Q", '[Trump "S"]', '[Leader "N"]'))
    r = run(["solve", "ending.pbn"], env={"COLUMNS": "80"})
    assert r.exit_code == 0
    assert r.stdout == ONE_CARD_ENDING


def _endings(tmp_path):
    """Small boards of every kind: one to three cards a hand, a trick in
    progress, a Play section, jokers, downtown."""
    text = (
        board("1", "N:.7.. 5... .2.. ...Q", '[Trump "S"]', '[Leader "N"]')
        + board("2", "N:AK.2.. QJ.3.. T9.4.. 87.5..", '[Trump "NT"]', '[Leader "E"]')
        + board("3", "N:A.K.Q. J.T.9. 8.7.6. 5.4.3.", '[Trump "H"]', '[Leader "W"]',
                '[Ranking "down"]')
        + board("4", "N:AKQ... JT9... 876... 543...", '[Trump "C"]', '[Leader "S"]')
    )
    path = tmp_path / "endings.pbn"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("columns", ["120", "80", "60", "44", "30"])
def test_laid_out_panels_are_what_rich_draws(tmp_path, monkeypatch, columns):
    files = [_endings(tmp_path)]
    for args in (["solve", *files], ["puzzles", str(ROOT / "puzzles")]):
        plain_laid, plain_rich = _both(monkeypatch, args, {"COLUMNS": columns})
        assert [ln.rstrip() for ln in plain_laid.split("\n")] == \
               [ln.rstrip() for ln in plain_rich.split("\n")]
        color_laid, color_rich = _both(monkeypatch, args,
                                       {"COLUMNS": columns, "FORCE_COLOR": "1"})
        assert "\x1b[" in color_laid
        assert _cells(color_laid) == _cells(color_rich)


@pytest.mark.parametrize("command", ["table", "solve"])
@pytest.mark.parametrize("columns", ["40", "44", "80"])
def test_a_narrow_terminal_shows_every_card(command, columns):
    """The compass tightens to the width instead of letting East's last
    cards fall past the panel's edge (COLUMNS=40 lost the club 2 of board
    1's East)."""
    from whist_solve.cards import sort_cards
    from whist_solve.pbn import read_pbn_file
    path = str(ROOT / "examples" / "deal.pbn")
    r = run([command, path, "--from-lead"] if command == "solve" else [command, path],
            env={"COLUMNS": columns})
    assert r.exit_code == 0, r.stderr
    shown = r.stdout
    for b in read_pbn_file(path):
        for hand in b.hands:
            for s in "SHDC":
                ranks = "".join(c[1] for c in sort_cards(hand, "up") if c[0] == s)
                if ranks:
                    assert f" {ranks} " in shown.replace("\u2502", " "), (b.label, s, ranks)
