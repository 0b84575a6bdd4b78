"""Output for people: hands in a compass, card values, the best line and
double-dummy tables, drawn with rich.

Everything here returns rich renderables; nothing prints.  The JSON output
does not go through this module.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Sequence

from rich import box
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from whist_solve.cards import JOKERS, SEATS, SUITS, Position, sort_cards

SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "NT": "no-trump"}
RANKING_NAMES = {"up": "uptown", "down": "downtown"}
SUIT_STYLES = {"S": "bold blue", "H": "bold red", "D": "bold dark_orange", "C": "bold green"}
JOKER_STYLE = "bold magenta"
_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def _can_encode(text: str, stream=None) -> bool:
    enc = getattr(stream or sys.stdout, "encoding", None) or "utf-8"
    try:
        text.encode(enc)
        return True
    except (UnicodeEncodeError, LookupError):
        return False


class Style:
    """Symbols or plain letters, chosen once per output stream."""

    def __init__(self, stream=None):
        self.symbols = _can_encode("".join(_SYMBOLS.values()) + "\u2014\u2192\u2605", stream)

    def suit(self, s: str) -> str:
        return _SYMBOLS[s] if self.symbols else s

    def strain(self, strain: str) -> Text:
        if strain in ("NT", None):
            return Text("NT", style="bold")
        return Text(self.suit(strain), style=SUIT_STYLES[strain])

    def card(self, card: str) -> Text:
        if card in JOKERS:
            return Text(card, style=JOKER_STYLE)
        return Text(self.suit(card[0]) + card[1], style=SUIT_STYLES[card[0]])

    def cards(self, cards: Sequence[str], sep: str = " ") -> Text:
        out = Text()
        for i, c in enumerate(cards):
            if i:
                out.append(sep)
            out.append_text(self.card(c))
        return out

    @property
    def dash(self) -> str:
        return "\u2014" if self.symbols else "-"

    @property
    def arrow(self) -> str:
        return "\u2192" if self.symbols else "->"

    @property
    def star(self) -> str:
        return "\u2605" if self.symbols else "*"


def side_name(seat: int) -> str:
    return "N-S" if seat % 2 == 0 else "E-W"


def strain_words(trump: Optional[str]) -> str:
    return SUIT_NAMES["NT" if trump is None else trump]


# --------------------------------------------------------------------------
# Hands


def hand_text(st: Style, cards, ranking: str, show_jokers: bool) -> Text:
    """Four lines, one per suit (ranks high to low in ``ranking``), and a
    jokers line when the deal has jokers."""
    ordered = sort_cards(cards, ranking)
    t = Text()
    for i, s in enumerate(SUITS):
        if i:
            t.append("\n")
        t.append(st.suit(s), style=SUIT_STYLES[s])
        t.append(" ")
        ranks = "".join(c[1] for c in ordered if c not in JOKERS and c[0] == s)
        t.append(ranks if ranks else st.dash, style="" if ranks else "dim")
    if show_jokers:
        t.append("\n")
        t.append("J", style=JOKER_STYLE)
        t.append(" ")
        j = [c for c in JOKERS if c in cards]
        if j:
            t.append(" ".join(j), style=JOKER_STYLE)
        else:
            t.append(st.dash, style="dim")
    return t


def _seat_block(st: Style, pos: Position, seat: int, show_jokers: bool) -> Text:
    name = SEAT_NAMES[SEATS[seat]]
    head = Text(name, style="bold")
    if seat == pos.turn:
        head.append(" (to play)", style="bold yellow")
    head.append("\n")
    head.append_text(hand_text(st, pos.hands[seat], pos.ranking, show_jokers))
    return head


def _trick_block(st: Style, pos: Position) -> Text:
    """The centre of the compass: the current trick so far."""
    t = Text()
    if not pos.trick:
        t.append(f"{SEATS[pos.leader]} leads", style="dim")
        return t
    t.append("trick so far\n", style="dim")
    for i, c in enumerate(pos.trick):
        seat = (pos.leader + i) % 4
        t.append(f"{SEATS[seat]} ")
        t.append_text(st.card(c))
        if i < len(pos.trick) - 1:
            t.append("\n")
    return t


def compass(st: Style, pos: Position, show_jokers: bool = False) -> Table:
    grid = Table.grid(padding=(0, 3))
    for _ in range(3):
        grid.add_column(min_width=12, vertical="middle")
    n, e, s, w = (_seat_block(st, pos, i, show_jokers) for i in range(4))
    grid.add_row("", n, "")
    grid.add_row(w, _trick_block(st, pos), e)
    grid.add_row("", s, "")
    return grid


# --------------------------------------------------------------------------
# solve


@dataclass
class Decision:
    """A point of the line where the seat on turn had cards of different
    values.  Values are the final tricks of that seat's side counted from
    the solved position on."""

    trick_no: int
    seat: int
    played: str
    values: Dict[str, int]


@dataclass
class LineTrick:
    number: int
    leader: int
    cards: Dict[int, str]          # seat -> card
    before: List[int] = field(default_factory=list)  # seats whose card was played before the position
    winner: Optional[int] = None
    ns: int = 0                    # running counts from the solved position
    ew: int = 0
    choice_seats: List[int] = field(default_factory=list)


@dataclass
class SolveView:
    title: str
    pos: Position
    trump: Optional[str]
    ranking: str
    first_leader: int
    tricks: int                    # for the side on turn
    cards: Mapping[str, int]
    trick_rows: List[LineTrick]
    decisions: List[Decision]
    analysed_to: Optional[int] = None     # first trick whose choices were not all analysed (None: all were)
    contract: Optional[str] = None
    declarer: Optional[str] = None
    kitty: Optional[Sequence[str]] = None
    played_before: int = 0         # cards played in the [Play] section
    nodes: Optional[int] = None
    jokers: bool = False


def _value_line(v: SolveView) -> Text:
    pos = v.pos
    turn = pos.turn
    left = pos.tricks_left
    mine = side_name(turn)
    t = Text()
    t.append(f"{mine} take ", style="bold")
    t.append(str(v.tricks), style="bold green")
    what = "trick" if left == 1 else "tricks"
    t.append(f" of the {left} {what} {'left' if pos.trick else 'from here'}", style="bold")
    if pos.trick:
        t.append(" (current trick included)")
    t.append(f"; {side_name(turn + 1)} take {left - v.tricks}.")
    return t


def contract_line(st: Style, trump: Optional[str], ranking: str, first_leader: int) -> Text:
    """'Trump ♠ spades · uptown · W led the first trick' (the heading's first
    line, shared by the solve and puzzles views)."""
    sep = " \u00b7 " if st.symbols else " | "
    t = Text()
    if trump is None:
        t.append("No-trump", style="bold")
    else:
        t.append("Trump ")
        t.append_text(st.strain(trump))
        t.append(f" {strain_words(trump)}", style="bold")
    t.append(sep)
    t.append(RANKING_NAMES[ranking], style="bold")
    t.append(sep)
    t.append(f"{SEATS[first_leader]} led the first trick")
    return t


def _header(st: Style, v: SolveView) -> Text:
    t = contract_line(st, v.trump, v.ranking, v.first_leader)
    if v.contract:
        t.append(" \u00b7 " if st.symbols else " | ")
        t.append(f"contract {v.contract}")
        if v.declarer:
            t.append(f" by {v.declarer}")
    elif v.declarer:
        t.append(" \u00b7 " if st.symbols else " | ")
        t.append(f"bidder {v.declarer}")
    pos = v.pos
    if v.played_before:
        t.append("\n")
        t.append(f"{v.played_before} card(s) already played: ")
        t.append(f"N-S won {pos.ns_tricks}, E-W won {pos.ew_tricks}")
        t.append(f"; trick {pos.ns_tricks + pos.ew_tricks + 1} in progress" if pos.trick else "")
    if v.kitty:
        t.append("\nKitty ")
        t.append_text(st.cards(sort_cards(v.kitty, v.ranking)))
    t.append("\n")
    t.append(f"{SEAT_NAMES[SEATS[pos.turn]]} to play.")
    return t


def card_values_table(st: Style, v: SolveView) -> Table:
    """Every legal card with the tricks its side takes, best first; cards
    of equal value share a row."""
    side = side_name(v.pos.turn)
    tbl = Table(title=f"{SEAT_NAMES[SEATS[v.pos.turn]]}'s cards", title_justify="left",
                box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    tbl.add_column(f"{side} tricks", justify="right")
    tbl.add_column("", justify="left")
    tbl.add_column("cards")
    best = max(v.cards.values()) if v.cards else None
    by_value: Dict[int, List[str]] = {}
    for c, n in v.cards.items():
        by_value.setdefault(n, []).append(c)
    for n in sorted(by_value, reverse=True):
        cards = sort_cards(by_value[n], v.ranking)
        if n == best:
            mark = Text(f"{st.star} best", style="bold green")
            value = Text(str(n), style="bold green")
        else:
            mark = Text(f"{n - best:+d}", style="red")
            value = Text(str(n))
        tbl.add_row(value, mark, st.cards(cards, "  "))
    return tbl


def line_table(st: Style, v: SolveView) -> Table:
    tbl = Table(title="Best line", title_justify="left", box=box.SIMPLE_HEAD,
                show_edge=False, pad_edge=False)
    tbl.add_column("trick", justify="right")
    tbl.add_column("lead", justify="center")
    for s in SEATS:
        tbl.add_column(s, justify="left", min_width=4)
    tbl.add_column("won by", justify="center")
    tbl.add_column("N-S", justify="right")
    tbl.add_column("E-W", justify="right")
    for row in v.trick_rows:
        cells = []
        for seat in range(4):
            c = row.cards.get(seat)
            if c is None:
                cells.append(Text(""))
                continue
            txt = st.card(c)
            if seat in row.before:
                txt.stylize("dim")
            if row.winner is not None and seat == row.winner:
                txt.stylize("underline")
            if seat == row.leader:
                txt = Text(">", style="dim") + txt
            if seat in row.choice_seats:
                txt.append(" *", style="bold yellow")
            cells.append(txt)
        tbl.add_row(str(row.number), SEATS[row.leader], *cells,
                    SEATS[row.winner] if row.winner is not None else "",
                    str(row.ns), str(row.ew))
    return tbl


def decisions_text(st: Style, v: SolveView) -> Optional[Text]:
    if not v.trick_rows:
        return None
    t = Text()
    if v.decisions:
        t.append("* a real choice (cards of different values); what the alternatives give, "
                 "counted from the solved position:\n", style="yellow")
        for d in v.decisions:
            side = side_name(d.seat)
            got = d.values[d.played]
            t.append(f"  trick {d.trick_no}, {SEATS[d.seat]} plays ")
            t.append_text(st.card(d.played))
            t.append(f": {side} {got}")
            others: Dict[int, List[str]] = {}
            for c, n in d.values.items():
                if n != got:
                    others.setdefault(n, []).append(c)
            for n in sorted(others, reverse=True):
                t.append("; ")
                t.append_text(st.cards(sort_cards(others[n], v.ranking)))
                t.append(f" {st.arrow} {side} {n}")
                t.append(f" ({n - got:+d})", style="red" if n < got else "green")
            t.append("\n")
    else:
        t.append("No card along this line changes the result: every choice is equal.\n", style="dim")
    if v.analysed_to is not None:
        t.append(f"(the later choices, in trick {v.analysed_to} and after, were not analysed: "
                 "time budget)\n", style="dim")
    t.append("> leads, underline wins the trick", style="dim")
    if any(r.before for r in v.trick_rows):
        t.append(", dim: played before the position", style="dim")
    t.rstrip()
    return t


def solve_view(st: Style, v: SolveView):
    parts = [
        _header(st, v),
        Text(""),
        compass(st, v.pos, v.jokers),
        Text(""),
        _value_line(v),
        Text(""),
        card_values_table(st, v),
    ]
    if v.trick_rows:
        parts += [Text(""), line_table(st, v)]
        d = decisions_text(st, v)
        if d is not None:
            parts.append(d)
    return Panel(Group(*parts), title=Text(v.title, style="bold"), title_align="left",
                 box=box.ROUNDED, expand=False)


# --------------------------------------------------------------------------
# table


def dd_tables_view(st: Style, title: str, table: Mapping, strains: Sequence[str],
                   rankings: Sequence[str], n_tricks: int, deal=None):
    """One table per ranking.  Left block: tricks won by N-S when the seat of
    the column leads to the first trick.  Right block, as bridge players read
    it: tricks won by the declarer's side, the declarer's left-hand opponent
    leading."""
    parts = []
    if deal is not None:
        parts += [deal, Text("")]
    expl = Text(
        f"{n_tricks} tricks. Left: tricks won by N-S when the seat of the column leads to "
        "the first trick. Right, as bridge players read it: tricks won by the declarer's "
        "side, the declarer's left-hand opponent leading (green: more than half).", style="dim")
    parts.append(expl)
    for ranking in rankings:
        by_leader = Table(title="N-S tricks by leader",
                          title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        by_decl = Table(title="by declarer", title_justify="left",
                        box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        by_leader.add_column("")
        for s in SEATS:
            by_leader.add_column(s, justify="right", min_width=2)
        by_decl.add_column("")
        for s in ("N", "S", "E", "W"):
            by_decl.add_column(s, justify="right", min_width=2)
        for strain in strains:
            row = table[strain][ranking]
            ns = {s: int(row[s]) for s in SEATS}
            by_leader.add_row(st.strain(strain), *(str(ns[s]) for s in SEATS))
            # declarer d: the leader is d's left-hand opponent
            decl = []
            for d in ("N", "S", "E", "W"):
                lho = SEATS[(SEATS.index(d) + 1) % 4]
                won = ns[lho] if d in ("N", "S") else n_tricks - ns[lho]
                style = "bold green" if won * 2 > n_tricks else ""
                decl.append(Text(str(won), style=style))
            by_decl.add_row(st.strain(strain), *decl)
        pair = Table.grid(padding=(0, 6))
        pair.add_row(by_leader, by_decl)
        parts += [Text(""), Text(f"{RANKING_NAMES[ranking].capitalize()} ({ranking})", style="bold"), pair]
    return Panel(Group(*parts), title=Text(title, style="bold"), title_align="left",
                 box=box.ROUNDED, expand=False)


def deal_text(st: Style, hands: Sequence[Sequence[str]], kitty: Optional[Sequence[str]] = None) -> Table:
    """The full deal in a compass (for `table`)."""
    show_jokers = any(c in JOKERS for h in hands for c in h) or bool(kitty and any(c in JOKERS for c in kitty))
    grid = Table.grid(padding=(0, 3))
    for _ in range(3):
        grid.add_column(min_width=12)

    def block(seat):
        t = Text(SEAT_NAMES[SEATS[seat]], style="bold")
        t.append("\n")
        t.append_text(hand_text(st, hands[seat], "up", show_jokers))
        return t

    centre = Text()
    if kitty:
        centre.append("Kitty\n", style="bold")
        centre.append_text(st.cards(sort_cards(kitty)))
    grid.add_row("", block(0), "")
    grid.add_row(block(3), centre, block(1))
    grid.add_row("", block(2), "")
    return grid
