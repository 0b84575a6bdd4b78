"""Printable diagrams: ``--html FILE`` of ``solve``, ``table`` and
``puzzles`` writes one self-contained page.

The page needs nothing but itself: the style sheet is inline, there is no
script and no link to the network; suits are the symbols of the text
(hearts and diamonds in red).  Each board is fed as the object its
``--json`` line holds (and, where a diagram needs it, the position), so the
page and the JSON always say the same thing.  ``puzzles`` gives a booklet:
the problems first, then the solutions, which start on a new page when
printed.
"""
from __future__ import annotations

from html import escape
from typing import Dict, Iterable, List, Mapping, Optional, Sequence

from whist_solve.cards import JOKERS, Position, sort_cards
from whist_solve.files import replace_file
from whist_solve.vocab import (RANKING_NAMES, SEAT_NAMES, SEATS, SIDE_NAMES, STRAIN_NAMES,
                               SUITS)

_SYMBOLS = {"S": "&spades;", "H": "&hearts;", "D": "&diams;", "C": "&clubs;"}
_RED = {"H", "D"}

CSS = """
body { font-family: Georgia, 'Times New Roman', serif; margin: 2em auto; max-width: 52em;
       color: #111; background: #fff; line-height: 1.35; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; margin: 0 0 0.3em 0; overflow-wrap: anywhere; }
h3 { font-size: 1.05em; margin: 0.8em 0 0.3em 0; }
.board { border-top: 1px solid #999; padding-top: 1em; margin-top: 1.5em; }
.facts { color: #333; margin: 0 0 0.6em 0; }
.s, .c { color: #111; } .h, .d { color: #c00; }
.diagram { display: grid; grid-template-columns: 11em 11em 11em; grid-template-rows: auto auto auto;
           gap: 0.4em 0.6em; margin: 0.6em 0; }
.seat { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 0.95em; }
.seat .name { font-family: Georgia, serif; font-weight: bold; display: block; }
.seat .turn { color: #a60; }
.north { grid-column: 2; grid-row: 1; } .west { grid-column: 1; grid-row: 2; }
.east { grid-column: 3; grid-row: 2; } .south { grid-column: 2; grid-row: 3; }
.centre { grid-column: 2; grid-row: 2; border: 1px solid #bbb; border-radius: 0.4em;
          padding: 0.3em; font-size: 0.9em; text-align: center; align-self: center; }
table.dd, table.line, table.values { border-collapse: collapse; margin: 0.4em 0 0.8em 0; }
table.dd td, table.dd th, table.line td, table.line th, table.values td, table.values th {
  border: 1px solid #bbb; padding: 0.15em 0.6em; text-align: center; }
table.values td.cards { text-align: left; }
tr.best td { font-weight: bold; background: #eef6ee; }
.cost { color: #c00; }
.verdict.yes { color: #070; font-weight: bold; } .verdict.no { color: #c00; font-weight: bold; }
.comment { font-style: italic; }
.won { text-decoration: underline; }
.j { font-weight: bold; color: #639; }
.led::before { content: "\\203A"; color: #888; }
.note { color: #555; font-size: 0.9em; }
@media print {
  body { margin: 0; max-width: none; }
  .board { break-inside: avoid; page-break-inside: avoid; }
  .solutions { break-before: page; page-break-before: always; }
  tr.best td { background: none; }
}
"""


# --------------------------------------------------------------------------
# Pieces


def card(c: str) -> str:
    """One card: ``<span class="h">&hearts;</span>A``."""
    if c in JOKERS:
        return f'<span class="j">{escape(c)}</span>'
    s = c[0]
    return f'<span class="{s.lower()}">{_SYMBOLS[s]}{escape(c[1])}</span>'


def cards(cs: Iterable[str]) -> str:
    return " ".join(card(c) for c in cs)


def suit(s: str) -> str:
    if s not in _SYMBOLS:
        return escape(s)
    return f'<span class="{s.lower()}">{_SYMBOLS[s]}</span>'


def strain_text(trump: Optional[str]) -> str:
    if trump in (None, "NT"):
        return "no-trump"
    return f"{suit(trump)} {STRAIN_NAMES[trump]}"


def hand(cs: Sequence[str], ranking: str) -> str:
    """Four lines (a line for the jokers when there are some)."""
    ordered = sort_cards(cs, ranking)
    lines = []
    for s in SUITS:
        ranks = "".join(c[1] for c in ordered if c not in JOKERS and c[0] == s)
        lines.append(f"{suit(s)} {escape(ranks) if ranks else '&mdash;'}")
    jokers = [c for c in JOKERS if c in cs]
    if jokers:
        lines.append(" ".join(card(j) for j in jokers))
    return "<br>".join(lines)


def diagram(hands: Sequence[Sequence[str]], ranking: str, centre: str = "",
            turn: Optional[int] = None) -> str:
    """The four hands around ``centre`` (the current trick or the kitty)."""
    parts = ['<div class="diagram">']
    for seat, cls in enumerate(("north", "east", "south", "west")):
        name = escape(SEAT_NAMES[SEATS[seat]])
        if seat == turn:
            name += ' <span class="turn">(to play)</span>'
        parts.append(f'<div class="seat {cls}"><span class="name">{name}</span>'
                     f'{hand(hands[seat], ranking)}</div>')
    if centre:
        parts.append(f'<div class="centre">{centre}</div>')
    parts.append("</div>")
    return "".join(parts)


def trick_centre(pos: Position) -> str:
    if not pos.trick:
        return f"{escape(SEAT_NAMES[SEATS[pos.leader]])} leads"
    rows = []
    for i, c in enumerate(pos.trick):
        rows.append(f"{SEATS[(pos.leader + i) % 4]} {card(c)}")
    return "Trick so far<br>" + "<br>".join(rows)


def values_table(values: Mapping[str, int], ranking: str, side: str) -> str:
    """The legal cards grouped by their value, best first."""
    by: Dict[int, List[str]] = {}
    for c, n in values.items():
        by.setdefault(n, []).append(c)
    if not by:
        return ""
    best = max(by)
    rows = [f'<table class="values"><tr><th>{escape(side)} tricks</th><th>cards</th></tr>']
    for n in sorted(by, reverse=True):
        cls = ' class="best"' if n == best else ""
        rows.append(f"<tr{cls}><td>{n}</td><td class=\"cards\">{cards(sort_cards(by[n], ranking))}"
                    "</td></tr>")
    rows.append("</table>")
    return "".join(rows)


def values_and_line(pos: Position, obj: Mapping, side: str, heading: str,
                    values: bool = True) -> List[str]:
    """Under ``heading`` the value of each card of the seat to play (unless
    not ``values``), then one best line: the parts of a solved position."""
    parts = [f"<h3>{heading}</h3>", values_table(obj["cards"], pos.ranking, side)] if values else []
    return parts + ["<h3>One best line</h3>", line_table(pos, obj["line"])]


def line_table(pos: Position, line: Sequence[str]) -> str:
    """The line trick by trick: the leader, each seat's card (the winner's
    underlined), the winner and the tricks of each side counted from the
    solved position, as the terminal and the value above count them."""
    if not line:
        return ""
    out = ['<table class="line"><tr><th>trick</th><th>lead</th>'
           + "".join(f"<th>{s}</th>" for s in SEATS) + "<th>won by</th><th>N-S</th><th>E-W</th></tr>"]
    p = pos
    number = p.ns_tricks + p.ew_tricks + 1
    row: Dict[int, str] = {}
    leader = p.leader
    for i, c in enumerate(p.trick):
        row[(p.leader + i) % 4] = card(c)
    for c in line:
        if not p.trick:
            leader = p.turn
        seat = p.turn
        row[seat] = card(c)
        p = p.play(c)
        if not p.trick:
            w = p.leader
            cells = []
            for s in range(4):
                cell = row.get(s, "")
                cls = []
                if s == w:
                    cls.append("won")
                if s == leader:
                    cls.append("led")
                attr = f' class="{" ".join(cls)}"' if cls else ""
                cells.append(f"<td{attr}>{cell}</td>")
            out.append(f"<tr><td>{number}</td><td>{SEATS[leader]}</td>{''.join(cells)}"
                       f"<td>{SEATS[w]}</td><td>{p.ns_tricks - pos.ns_tricks}</td>"
                       f"<td>{p.ew_tricks - pos.ew_tricks}</td></tr>")
            number += 1
            row = {}
    out.append("</table>")
    return "".join(out)


def _facts(obj: Mapping, pos: Optional[Position], at: Optional[Position] = None) -> str:
    """Trump, ranking, the first leader ("led" once a card has been played
    in the position ``at``, else "to lead"; ``at`` is ``pos`` by default),
    and with ``pos`` the seat to play."""
    bits = [strain_text(obj.get("trump")) + f", {RANKING_NAMES.get(obj.get('ranking', 'up'))}"]
    at = pos if at is None else at
    if obj.get("leader"):
        started = at is None or at.ns_tricks + at.ew_tricks > 0 or bool(at.trick)
        bits.append(f"{SEAT_NAMES[obj['leader']]} led the first trick" if started
                    else f"{SEAT_NAMES[obj['leader']]} to lead")
    if pos is not None and not pos.is_over():
        bits.append(f"{SEAT_NAMES[SEATS[pos.turn]]} to play, {pos.tricks_left} "
                    f"trick{'s' if pos.tricks_left != 1 else ''} left")
    return f'<p class="facts">{"; ".join(bits)}.</p>'


def html_obj(obj: dict, board) -> dict:
    """A board's JSON object for the page: with the board's place in the
    file when other boards of it share its label."""
    return dict(obj, place=board.place) if board.place else obj


def _label_and_title(obj: Mapping) -> str:
    """The board's label and title, each in <bdi> (a right-to-left override
    in a label stays inside it)."""
    label = f'<bdi>{escape(str(obj.get("board", "")))}</bdi>'
    # (a label other boards of the file share: its place, as the terminal says)
    label += escape(obj.get("place", ""))
    return label + (f": <bdi>{escape(obj['title'])}</bdi>" if obj.get("title") else "")


def _board_heading(obj: Mapping, extra: str = "") -> str:
    where = (f' <span class="note"><bdi>{escape(obj["file"])}</bdi></span>' if obj.get("file")
             else "")
    return f"<h2>Board {_label_and_title(obj)}{extra}{where}</h2>"


# --------------------------------------------------------------------------
# The page


class HtmlPage:
    """One page of boards; :meth:`write` saves it."""

    def __init__(self, title: str):
        self.title = title
        self.sections: List[str] = []
        self.solutions: List[str] = []     # puzzles: after the problems
        self.errors = 0                    # boards not solved (add_error)

    # ---- solve ----------------------------------------------------------

    def add_solve(self, obj: Mapping, pos: Position, kitty: Sequence[str] = (),
                  contract: Optional[str] = None) -> None:
        """A board of ``solve``: the contract as the terminal's header
        says it (``contract``: 'contract 4H by S', or why an option set it
        aside), the diagram (and the kitty), each card's value, the line."""
        side = SIDE_NAMES["NS" if pos.turn % 2 == 0 else "EW"]
        parts = ['<section class="board">', _board_heading(obj), _facts(obj, pos)]
        if contract:
            parts.append(f'<p class="facts">{escape(contract[0].upper() + contract[1:])}.</p>')
        parts.append(diagram(pos.hands, pos.ranking, trick_centre(pos), pos.turn))
        if kitty:
            parts.append(f"<p>Kitty: {cards(sort_cards(kitty, pos.ranking))}</p>")
        if pos.is_over():
            parts.append(f"<p><b>The play is over:</b> N-S took {pos.ns_tricks}, "
                         f"E-W {pos.ew_tricks}.</p>")
        else:
            parts.append(f"<p><b>{side} take {obj['tricks']} of the {obj['tricks_left']} "
                         f"trick{'s' if obj['tricks_left'] != 1 else ''} left</b> with best play "
                         f"(N-S {obj['ns_tricks']}, E-W {obj['ew_tricks']}).</p>")
            parts += values_and_line(
                pos, obj, side, f"The value of each card of {SEAT_NAMES[SEATS[pos.turn]]}")
        parts.append("</section>")
        self.sections.append("".join(parts))

    # ---- table ----------------------------------------------------------

    def add_table(self, obj: Mapping, hands: Sequence[Sequence[str]],
                  kitty: Sequence[str] = (), par: Optional[str] = None) -> None:
        """A board of ``table``: the deal and the tricks N-S take by strain,
        ranking and leader, and the par as the terminal says it (``par``)."""
        centre = f"Kitty<br>{cards(sort_cards(kitty))}" if kitty else ""
        parts = ['<section class="board">', _board_heading(obj),
                 diagram(hands, "up", centre)]
        table = obj["table"]
        strains = list(table)
        rankings = list(next(iter(table.values()))) if table else []
        for r in rankings:
            parts.append(f"<h3>Tricks won by N-S, {RANKING_NAMES[r]} "
                         f"(of {obj.get('tricks_total', '')})</h3>")
            parts.append('<table class="dd"><tr><th>leader</th>'
                         + "".join(f"<th>{suit(s) if s != 'NT' else 'NT'}</th>" for s in strains)
                         + "</tr>")
            for seat in SEATS:
                parts.append(f"<tr><th>{seat}</th>"
                             + "".join(f"<td>{table[s][r][seat]}</td>" for s in strains)
                             + "</tr>")
            parts.append("</table>")
        if par:
            parts.append(f'<p class="facts">{escape(par)}</p>')
        parts.append("</section>")
        self.sections.append("".join(parts))

    # ---- puzzles --------------------------------------------------------

    def add_puzzle(self, obj: Mapping, pos: Position) -> None:
        """A problem (the diagram and the goal) for the first part of the
        booklet, and its solution (verdict, key plays, values, the line)
        for the second.  A puzzle whose Play section records every trick:
        the tricks taken, and whether the goal asked for any more."""
        goal = obj["goal"]
        side = SIDE_NAMES[goal["side"]]
        left = obj["tricks_left"]
        n = len(self.solutions) + 1
        note = f" ({goal['note']})" if goal.get("note") else ""
        over = pos.is_over()
        if over:
            shown = (f"<p><b>The play is over:</b> N-S took {pos.ns_tricks}, "
                     f"E-W {pos.ew_tricks}.</p>")
            ask = (f"{side} to take {goal['tricks']} more "
                   f"trick{'s' if goal['tricks'] != 1 else ''}{note}.")
        else:
            shown = diagram(pos.hands, pos.ranking, trick_centre(pos), pos.turn)
            ask = (f"{side} to take {goal['tricks']} of the {left} "
                   f"trick{'s' if left != 1 else ''} left{note}; "
                   f"{SEAT_NAMES[SEATS[pos.turn]]} to play.")
        problem = ['<section class="board problem">',
                   _board_heading(obj, extra=f" <span class=\"note\">(problem {n})</span>"),
                   _facts(obj, None, pos), shown, f"<p><b>{escape(ask)}</b></p>"]
        if obj.get("comment"):
            problem.append(f'<p class="comment">{escape(obj["comment"])}</p>')
        problem.append("</section>")
        self.sections.append("".join(problem))

        ok = obj["solved"]
        if over:
            verdict = (f'<span class="verdict yes">Solved:</span> {side} needed no more tricks.'
                       if ok else
                       f'<span class="verdict no">The goal fails:</span> no trick is left, and '
                       f'{side} needed {goal["tricks"]} more.')
        else:
            verdict = (f'<span class="verdict yes">Solved:</span> {side} take {obj["tricks"]} '
                       f'(goal {goal["tricks"]}).' if ok else
                       f'<span class="verdict no">The goal fails:</span> {side} take only '
                       f'{obj["tricks"]} (goal {goal["tricks"]}).')
        sol = ['<section class="board solution">',
               f"<h2>Solution {n}: board {_label_and_title(obj)}</h2>",
               f"<p>{verdict}</p>"]
        if obj.get("key"):
            sol.append(f'<h3>The key plays</h3><p class="note">The cards that keep the verdict; '
                       f'in brackets, the tricks of {side} after each other card.</p><ul>')
            for k in obj["key"]:
                bad = ", ".join(f"{card(c)} <span class=\"note\">({v})</span>"
                                for c, v in k["bad"].items())
                sol.append(f"<li>Trick {k['trick']}, {SEAT_NAMES[k['seat']]}: "
                           f"{cards(k['good'])}"
                           + (f"; not {bad}" if bad else "")
                           + "</li>")
            sol.append("</ul>")
        if not over:
            sol += values_and_line(pos, obj, side,
                                   f"Each card of {SEAT_NAMES[SEATS[pos.turn]]}: tricks of {side}",
                                   values=bool(obj.get("cards")))
        sol.append("</section>")
        self.solutions.append("".join(sol))

    # ---- errors ---------------------------------------------------------

    def add_error(self, where: str, text: str) -> None:
        """A board (or file) that could not be solved, in its place: a
        printed page must not look complete when it is not."""
        place = f"{where}: " if where else ""
        self.sections.append(f'<section class="board error"><p><span class="verdict no">Not '
                             f'solved:</span> <bdi>{escape(place + text)}</bdi></p></section>')
        self.errors += 1

    # ---- output ---------------------------------------------------------

    def text(self) -> str:
        body = []
        if self.solutions:
            body.append("<h1>Problems</h1>")
            body.extend(self.sections)
            body.append('<div class="solutions"><h1>Solutions</h1>')
            body.extend(self.solutions)
            body.append("</div>")
        else:
            body.extend(self.sections)
        if len(self.sections) == self.errors:
            body.append("<p>No boards solved.</p>" if self.errors else "<p>No boards.</p>")
        return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                f"<title>{escape(self.title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
                f"<header><p class=\"note\">{escape(self.title)}</p></header>\n"
                + "\n".join(body) + "\n</body>\n</html>\n")

    def write(self, path: str) -> None:
        # (a file name that is not UTF-8 comes from the system with its
        # bytes as surrogates: shown with replacement characters)
        text = self.text().encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        replace_file(path, text.encode("utf-8"))


def write_page(run, page: HtmlPage, path: str) -> None:
    """Writes the page, or reports why it cannot (exit status 2).  SIGTERM
    or SIGHUP meanwhile stops the command as Ctrl-C does, the half-written
    temporary file removed and the old page kept."""
    try:
        with run.interruptible():
            page.write(path)
    except (OSError, ValueError) as e:
        run.error("", f"cannot write the HTML page {path}: {e.strerror or e}")
    else:
        run.err.print(f"wrote {path}", highlight=False)
