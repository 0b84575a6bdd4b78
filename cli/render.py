"""Output for people: hands in a compass, card values, the best line and
double-dummy tables, drawn with rich.

Everything here returns rich renderables; nothing prints.  The JSON output
does not go through this module.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Dict, List, Mapping, Optional, Sequence

from rich import box
from rich.cells import cell_len
from rich.console import Group
from rich.segment import Segment
from rich.panel import Panel
from rich.table import Table
from rich.text import Span, Text

from whist_solve.cards import JOKERS, Position, sort_cards
from whist_solve.vocab import (RANKING_NAMES, SEAT_NAMES, SEATS, SIDE_NAMES, STRAIN_NAMES,
                               SUIT_SYMBOLS, SUITS, ascii_arrows, bid_kind, bid_name,
                               contract_name, opening_leader, side_name, strain_name)

# The analyses' modules (bench, bid, lines, puzzle) are imported where they
# are used: `table` and `solve` load this module and need none of them.
if TYPE_CHECKING:
    from whist_solve.bench import SetReport
    from whist_solve.lines import Decision, LineTrick
    from whist_solve.puzzle import Goal, KeyPlay

SUIT_STYLES = {"S": "bold blue", "H": "bold red", "D": "bold dark_orange", "C": "bold green"}
JOKER_STYLE = "bold magenta"


def can_encode(text: str, stream=None) -> bool:
    enc = getattr(stream or sys.stdout, "encoding", None) or "utf-8"
    try:
        text.encode(enc)
        return True
    except (UnicodeEncodeError, LookupError):
        return False


class Style:
    """Symbols or plain letters, chosen once per output stream."""

    def __init__(self, stream=None):
        self.symbols = can_encode("".join(SUIT_SYMBOLS.values()) + "\u2014\u2192\u2605", stream)

    def suit(self, s: str) -> str:
        return SUIT_SYMBOLS[s] if self.symbols else s

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


def plural(n: int, word: str, many: Optional[str] = None) -> str:
    """``1 trick``, ``6 cards``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def board_title(board) -> str:
    """``Board 3  file.pbn``: the title of a board's panel."""
    return f"Board {board.label}{board.place}  {board.file}"


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
        # Named in full: a row headed "J" reads as a row of jacks.
        t.append("\n")
        t.append("Jokers", style=JOKER_STYLE)
        t.append(" ")
        j = [c for c in JOKERS if c in cards]
        if j:
            t.append(" ".join(j), style=JOKER_STYLE)
        else:
            t.append(st.dash, style="dim")
    return t


_SEAT_BLOCKS: Dict[tuple, Text] = {}


def _seat_block(st: Style, pos: Position, seat: int, show_jokers: bool) -> Text:
    """A seat's name and hand (a copy of a remembered block: many boards
    of a file share their small hands)."""
    key = (st.symbols, seat, seat == pos.turn, tuple(pos.hands[seat]), pos.ranking, show_jokers)
    block = _SEAT_BLOCKS.get(key)
    if block is None:
        if len(_SEAT_BLOCKS) > 4096:
            _SEAT_BLOCKS.clear()
        block = _SEAT_BLOCKS[key] = _new_seat_block(st, pos, seat, show_jokers)
    return block.copy()


def _new_seat_block(st: Style, pos: Position, seat: int, show_jokers: bool) -> Text:
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


class Compass:
    """The four hands around the centre (the trick, or the kitty) in a 3 x 3
    grid: its columns at least 12 cells and 3 apart where the width allows,
    else as narrow as the hands and 1 apart, so that a narrow terminal
    (COLUMNS=40) cuts no card off: at the usual spacing, East's last cards
    fell past the panel's edge.  A hand still too wide is folded."""

    COLUMN = 12     # least width of a column at the usual spacing
    GAP = 3         # cells between columns at the usual spacing

    def __init__(self, north: Text, west: Text, centre: Text, east: Text, south: Text,
                 vertical: str = "top"):
        self.cells = (north, west, centre, east, south)
        self.vertical = vertical

    def grid(self, max_width: int) -> Table:
        north, west, centre, east, south = self.cells
        widths = [max((cell_len(ln) for t in col for ln in t.plain.split("\n")), default=0)
                  for col in ((west,), (north, centre, south), (east,))]
        wide = sum(max(self.COLUMN, w) for w in widths) + 2 * self.GAP <= max_width
        grid = Table.grid(padding=(0, self.GAP if wide else 1))
        for _ in range(3):
            if wide:
                grid.add_column(min_width=self.COLUMN, vertical=self.vertical)
            else:
                grid.add_column(vertical=self.vertical)
        grid.add_row("", north, "")
        grid.add_row(west, centre, east)
        grid.add_row("", south, "")
        return grid

    def __rich_console__(self, console, options):
        yield self.grid(options.max_width)

    def __rich_measure__(self, console, options):
        from rich.measure import Measurement
        return Measurement.get(console, options, self.grid(options.max_width))


def compass(st: Style, pos: Position, show_jokers: bool = False) -> Compass:
    n, e, s, w = (_seat_block(st, pos, i, show_jokers) for i in range(4))
    return Compass(n, w, _trick_block(st, pos), e, s, vertical="middle")


# --------------------------------------------------------------------------
# A panel laid out by hand
#
# rich lays a Panel of Tables out generically (measuring and rendering every
# cell several times), which costs milliseconds per board; a file of many
# small boards spent most of its time there.  LaidPanel draws the same panel
# from the same parts (Text, and Tables of the simple kind used here) line
# by line, and hands anything it does not lay out itself (a narrow
# terminal, an ASCII-only stream, a table feature not used here) to rich.


def _segments(console, text: Text):
    """``text`` as segments, its own style under its spans (as rich joins
    the lines of a Text before drawing them)."""
    if text.style:
        text = text.copy()
        text.spans = [Span(0, len(text), text.style)] + text.spans
        text.style = ""
    return text.render(console, end="")


class _Line(list):
    """One drawn line: its segments, and its width in cells."""
    __slots__ = ("width",)


def _line(segments, width: Optional[int] = None) -> _Line:
    line = _Line(segments)
    line.width = Segment.get_line_length(line) if width is None else width
    return line


_DRAWN: Dict[tuple, List[_Line]] = {}     # text -> its lines, for one console
_DRAWN_FOR: list = [None]


def _seg_lines(console, text: Text) -> List[_Line]:
    """The lines of ``text`` as rich would draw them without wrapping (the
    same few texts come again and again: remembered; the lines returned
    are shared and never changed)."""
    if _DRAWN_FOR[0] is not console or len(_DRAWN) > 4096:
        _DRAWN.clear()
        _DRAWN_FOR[0] = console
    key = (text.plain, text.style, tuple(text.spans))
    lines = _DRAWN.get(key)
    if lines is None:
        lines = _DRAWN[key] = _draw_lines(console, text)
    return lines


def _draw_lines(console, text: Text) -> List[_Line]:
    if "\n" not in text.plain:
        return [_line(_segments(console, text), text.cell_len)]
    widths = [cell_len(part) for part in text.plain.split("\n")]
    lines = [_line(ln, w) for ln, w in zip(Segment.split_lines(_segments(console, text)), widths)]
    lines.extend(_line([], 0) for _ in range(len(widths) - len(lines)))
    return lines


def _text_cells(console, cell) -> Optional[List[_Line]]:
    """A table cell's lines, or None when it is not plain text."""
    if isinstance(cell, str):
        if "[" in cell:
            return None
        if "\n" not in cell:
            return [_line([Segment(cell)] if cell else [], cell_len(cell))]
        cell = Text(cell)
    if not isinstance(cell, Text) or cell.justify or cell.overflow or cell.no_wrap:
        return None
    if not cell.spans and not cell.style and "\n" not in cell.plain:
        return [_line([Segment(cell.plain)] if cell.plain else [], cell.cell_len)]
    return _seg_lines(console, cell)


def _pad(line: _Line, width: int, how: str = "left", before: int = 0,
         after: int = 0) -> _Line:
    """``line`` justified in ``width`` cells (left, right or center), with
    ``before`` and ``after`` more blank cells around."""
    excess = width - line.width
    if excess < 0:
        excess = 0
    if how == "right":
        left, right = excess, 0
    elif how == "center":
        left, right = excess // 2, excess - excess // 2
    else:
        left, right = 0, excess
    left += before
    right += after
    out = _Line([Segment(" " * left)] if left else [])
    out.extend(line)
    if right:
        out.append(Segment(" " * right))
    out.width = line.width + left + right
    return out


_RULES = {box.SIMPLE_HEAD: "\u2500"}


def _table_lines(console, tbl: Table, max_width: int) -> Optional[List[_Line]]:
    """The lines of ``tbl`` at its natural width, each padded to it, or None
    when the table uses what is not handled here or does not fit."""
    if (tbl.expand or tbl.width is not None or tbl.min_width is not None or tbl.show_footer
            or tbl.caption is not None or tbl.show_lines or tbl.leading or tbl.row_styles
            or tbl.style not in (None, "", "none") or tbl.border_style or tbl.show_edge
            or tbl.pad_edge
            or (tbl.box is not None and tbl.box not in _RULES)
            or (tbl.title is not None and (not isinstance(tbl.title, str) or "[" in tbl.title
                                           or "\n" in tbl.title or tbl.title_style
                                           or tbl.title_justify != "left"))
            or any(r.style or r.end_section for r in tbl.rows)):
        return None
    top, right, bottom, left = tbl.padding
    if top or bottom:
        return None
    ncol = len(tbl.columns)
    header_style = console.get_style("table.header")
    cols = []      # per column: (cells, pad_left, pad_right)
    for i, col in enumerate(tbl.columns):
        if (col.width is not None or col.max_width is not None or col.ratio or col.style
                or col.header_style or col.no_wrap or col.overflow != "ellipsis" or col.footer
                or col.vertical not in ("top", "middle")):
            return None
        pl, pr = left, right
        if tbl.collapse_padding and i:
            pl = max(0, pl - pr)
        if i == 0:
            pl = 0
        if i == ncol - 1:
            pr = 0
        cells = []
        if tbl.show_header:
            lines = _text_cells(console, col.header)
            if lines is None:
                return None
            cells.append([_line(Segment.apply_style(ln, header_style), ln.width)
                          for ln in lines])
        for cell in col._cells:
            lines = _text_cells(console, cell)
            if lines is None:
                return None
            cells.append(lines)
        cols.append((cells, pl, pr))
    widths = []
    for col, (cells, pl, pr) in zip(tbl.columns, cols):
        w = max((ln.width for lines in cells for ln in lines), default=0)
        if col.min_width is not None:
            w = max(w, col.min_width)
        widths.append(max(w + pl + pr, 1) if cells else max_width)
    divider = 1 if tbl.box is not None else 0
    total = sum(widths) + divider * (ncol - 1)
    if total > max_width:
        return None
    out: List[_Line] = []
    if tbl.title is not None:
        title = _seg_lines(console, Text(tbl.title, style="table.title"))
        if len(title) != 1 or title[0].width > total:
            return None
        out.append(_pad(title[0], total))
    nrows = len(cols[0][0]) if cols else 0
    sep = [Segment(" ")] if divider else []
    for r in range(nrows):
        header = tbl.show_header and r == 0
        blocks = []
        for col, (cells, pl, pr), w in zip(tbl.columns, cols, widths):
            lines = []
            for ln in cells[r]:
                lines.append(_pad(ln, w - pl - pr, col.justify, pl, pr))
            blocks.append(lines)
        height = max(len(b) for b in blocks)
        for b, col, w in zip(blocks, tbl.columns, widths):
            extra = height - len(b)
            if extra:
                if header:
                    above = extra
                elif col.vertical == "middle":
                    above = extra // 2
                else:
                    above = 0
                b[:0] = [_line([Segment(" " * w)], w) for _ in range(above)]
                b.extend(_line([Segment(" " * w)], w) for _ in range(extra - above))
        for k in range(height):
            line = _Line()
            for j, b in enumerate(blocks):
                if j:
                    line.extend(sep)
                line.extend(b[k])
            line.width = total
            out.append(line)
        if header and tbl.box is not None:
            out.append(_line([Segment(_RULES[tbl.box] * total)], total))
    return out


class LaidPanel:
    """A Panel(Group(*parts), title=..., box=ROUNDED, expand=False) drawn
    line by line; what rich would draw, without its generic layout."""

    def __init__(self, parts: Sequence, title: Text, border_style: str = "none"):
        self.parts = list(parts)
        self.title = title
        self.border_style = border_style

    def panel(self) -> Panel:
        return Panel(Group(*self.parts), title=self.title, title_align="left",
                     box=box.ROUNDED, expand=False, border_style=self.border_style)

    def __rich_measure__(self, console, options):
        from rich.measure import Measurement
        return Measurement.get(console, options, self.panel())

    def _lines(self, console, max_width: int):
        inner = max_width - 4          # borders and the panel's padding
        if inner < 1:
            return None
        blocks = []
        for part in self.parts:
            if isinstance(part, Compass):
                part = part.grid(inner)
            if isinstance(part, Table):
                lines = _table_lines(console, part, inner)
                if lines is None:
                    return None
            elif isinstance(part, Text) and not (part.justify or part.overflow or part.no_wrap):
                lines = _seg_lines(console, part)
            else:
                return None
            blocks.append(lines)
        width = max((ln.width for lines in blocks for ln in lines), default=0)
        title = self.title.copy()
        title.pad(1)
        width = min(max(width, title.cell_len), inner)
        if title.cell_len > width or "\n" in title.plain:
            return None
        out = []
        for part, lines in zip(self.parts, blocks):
            if isinstance(part, Text) and any(ln.width > width for ln in lines):
                lines = [_line(_segments(console, ln), ln.cell_len)
                         for ln in part.wrap(console, width, justify="default",
                                             overflow="fold", tab_size=8, no_wrap=False)]
            out.extend(lines)
        return width, title, out

    def __rich_console__(self, console, options):
        if options.ascii_only or options.legacy_windows:
            yield self.panel()
            return
        laid = self._lines(console, options.max_width)
        if laid is None:
            yield self.panel()
            return
        width, title, lines = laid
        border = console.get_style(self.border_style)
        b = box.ROUNDED
        title = Text.assemble(title)       # its own style as a span, as in a Panel's title
        title.stylize_before(border)
        yield Segment(b.top_left + b.top, border)
        yield from title.render(console, end="")
        yield Segment(b.top * (width - title.cell_len) + b.top + b.top_right, border)
        new_line = Segment.line()
        yield new_line
        for ln in lines:
            yield Segment(b.mid_left, border)
            yield from _pad(ln, width, before=1, after=1)
            yield Segment(b.mid_right, border)
            yield new_line
        yield Segment(b.get_bottom([width + 2]), border)
        yield new_line


# --------------------------------------------------------------------------
# solve


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
    set_aside: Optional[str] = None       # why the file's contract is not shown (an option overrode it)
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


def contract_line(st: Style, trump: Optional[str], ranking: str, first_leader: int,
                  started: bool = True) -> Text:
    """'Trump ♠ spades · uptown · W led the first trick' (the heading's first
    line, shared by the solve and puzzles views); 'W to lead' when no card
    of the deal has been played (``started`` false)."""
    sep = " \u00b7 " if st.symbols else " | "
    t = Text()
    if trump is None:
        t.append("No-trump", style="bold")
    else:
        t.append("Trump ")
        t.append_text(st.strain(trump))
        t.append(f" {strain_name(trump)}", style="bold")
    t.append(sep)
    t.append(RANKING_NAMES[ranking], style="bold")
    t.append(sep)
    t.append(f"{SEATS[first_leader]} led the first trick" if started
             else f"{SEATS[first_leader]} to lead")
    return t


def _started(pos: Position, played_before: int) -> bool:
    """Whether a card of the deal has been played before ``pos``."""
    return bool(played_before or pos.trick or pos.ns_tricks or pos.ew_tricks)


def contract_note(contract: Optional[str], declarer: Optional[str], set_aside: Optional[str],
                  symbols: bool = True) -> Optional[str]:
    """What solve's header says of the board's contract: 'passed out',
    'contract 4H\u2193 by S', why an option set it aside, 'bidder S', or
    None."""
    if contract == "Pass":
        return "passed out"
    if contract:
        name = contract if symbols else ascii_arrows(contract)
        return f"contract {name}" + (f" by {declarer}" if declarer else "")
    if set_aside:
        return set_aside
    return f"bidder {declarer}" if declarer else None


def _header(st: Style, v: SolveView) -> Text:
    t = contract_line(st, v.trump, v.ranking, v.first_leader, _started(v.pos, v.played_before))
    note = contract_note(v.contract, v.declarer, v.set_aside, st.symbols)
    if note:
        t.append(" \u00b7 " if st.symbols else " | ")
        t.append(note, style="dim" if note == v.set_aside else "")
    pos = v.pos
    if v.played_before:
        t.append("\n")
        t.append(f"{plural(v.played_before, 'card')} already played: ")
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
                 "budget of search nodes)\n", style="dim")
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
    return LaidPanel(parts, Text(v.title, style="bold"))


# --------------------------------------------------------------------------
# table


def dd_tables_view(st: Style, title: str, table: Mapping, strains: Sequence[str],
                   rankings: Sequence[str], n_tricks: int, deal=None, par=None,
                   note: Optional[str] = None, bid_whist: bool = False):
    """One table per ranking.  Left block: tricks won by N-S when the seat of
    the column leads to the first trick.  Right block, as bridge players read
    it: tricks won by the declarer's side, the declarer's left-hand opponent
    leading; in bid whist (``bid_whist``), where the bidder leads, tricks won
    by the bidder's side, the bidder leading.  Both blocks have their
    columns in the order N E S W.  ``par`` (a :class:`whist_solve.par.Par`)
    is shown under the tables; ``note`` (e.g. 'passed out') above them."""
    parts = []
    if deal is not None:
        parts += [deal, Text("")]
    right = ("Right, as bid whist players read it: tricks won by the bidder's side, the "
             "bidder leading" if bid_whist else
             "Right, as bridge players read it: tricks won by the declarer's side, the "
             "declarer's left-hand opponent leading")
    green = "at least half: with the kitty's book, a bid made" if bid_whist else "more than half"
    expl = Text(
        f"{n_tricks} tricks. Left: tricks won by N-S when the seat of the column leads to "
        f"the first trick. {right} (green: {green}).", style="dim")
    if note:
        parts += [Text(note, style="bold"), Text("")]
    parts.append(expl)
    for ranking in rankings:
        by_leader = Table(title="N-S tricks by leader",
                          title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        by_decl = Table(title="by bidder" if bid_whist else "by declarer", title_justify="left",
                        box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        by_leader.add_column("")
        for s in SEATS:
            by_leader.add_column(s, justify="right", min_width=2)
        by_decl.add_column("")
        for s in SEATS:
            by_decl.add_column(s, justify="right", min_width=2)
        for strain in strains:
            row = table[strain][ranking]
            ns = {s: int(row[s]) for s in SEATS}
            by_leader.add_row(st.strain(strain), *(str(ns[s]) for s in SEATS))
            decl = []
            for d in SEATS:
                lead = SEATS[opening_leader(SEATS.index(d), bid_whist)]
                won = ns[lead] if d in ("N", "S") else n_tricks - ns[lead]
                style = "bold green" if won * 2 > n_tricks or (bid_whist and won * 2 == n_tricks) else ""
                decl.append(Text(str(won), style=style))
            by_decl.add_row(st.strain(strain), *decl)
        pair = Table.grid(padding=(0, 6))
        pair.add_row(by_leader, by_decl)
        parts += [Text(""), Text(f"{RANKING_NAMES[ranking].capitalize()} ({ranking})", style="bold"), pair]
    if par is not None:
        parts += [Text(""), par_text(par)]
    return Panel(Group(*parts), title=Text(title, style="bold"), title_align="left",
                 box=box.ROUNDED, expand=False)


def par_text(p) -> Text:
    """``Par +620: 4S-NS  (dealer N, vulnerable None; N-S's point of view)``."""
    t = Text()
    t.append(p.text(), style="bold")
    j = p.as_json()
    t.append(f"  (dealer {j['dealer']}, vulnerable {j['vulnerable']}; scores for N-S)",
             style="dim")
    return t


def deal_text(st: Style, hands: Sequence[Sequence[str]], kitty: Optional[Sequence[str]] = None) -> Compass:
    """The full deal in a compass (for `table`)."""
    show_jokers = any(c in JOKERS for h in hands for c in h) or bool(kitty and any(c in JOKERS for c in kitty))

    def block(seat):
        t = Text(SEAT_NAMES[SEATS[seat]], style="bold")
        t.append("\n")
        t.append_text(hand_text(st, hands[seat], "up", show_jokers))
        return t

    centre = Text()
    if kitty:
        centre.append("Kitty\n", style="bold")
        centre.append_text(st.cards(sort_cards(kitty)))
    return Compass(block(0), block(3), centre, block(1), block(2))

# --------------------------------------------------------------------------
# bid and check


def compact_hand(st: Style, cards, ranking: str) -> Text:
    """``♠KT4 ♥AKT8 ♦A9 JH``: suit by suit, high to low in the ranking."""
    ordered = sort_cards(cards, ranking)
    t = Text()
    for s in ("S", "H", "D", "C"):
        ranks = "".join(c[1] for c in ordered if c not in JOKERS and c[0] == s)
        if ranks:
            if t:
                t.append(" ")
            t.append(st.suit(s) + ranks, style=SUIT_STYLES[s])
    for j in JOKERS:
        if j in cards:
            if t:
                t.append(" ")
            t.append(j, style=JOKER_STYLE)
    return t


def option_label(st: Style, trump: str, ranking: str) -> Text:
    t = Text()
    if trump == "NT":
        t.append("NT", style="bold")
        t.append(f" no-trump {RANKING_NAMES[ranking]}")
    else:
        t.append_text(st.strain(trump))
        t.append(f" {STRAIN_NAMES[trump]} {RANKING_NAMES[ranking]}")
    return t


def bid_view(st: Style, board, hands, kitty, seat: int, exchanges, summary,
             min_bid_3: bool) -> Panel:
    """``bid``: the deal, the ten options (books, highest bid, keep and
    discard) and the verdict."""
    from whist_solve.bid import highest_bid, min_level
    n = len(hands[0])
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("Choice", no_wrap=True)
    table.add_column("Books", justify="right")
    table.add_column("Highest bid", no_wrap=True)
    table.add_column("Keep")
    table.add_column("Discard")
    for ex in exchanges:
        level = highest_bid(ex.books, min_bid_3)
        is_best = ex is summary.best
        label = option_label(st, ex.trump, ex.ranking)
        if is_best:
            label.append(f" {st.star}", style="bold yellow")
        table.add_row(
            label,
            Text(str(ex.books), style="bold" if is_best else ""),
            Text(f"{level} {bid_kind(ex.trump, ex.ranking)}" if level else st.dash,
                 style="" if level else "dim"),
            compact_hand(st, ex.keep, ex.ranking),
            compact_hand(st, ex.discard, ex.ranking),
            style="on grey15" if is_best else None,
        )
    best = summary.best
    head = Text()
    head.append(f"Bidder {SEAT_NAMES[SEATS[seat]]} ({side_name(seat)})", style="bold")
    head.append(f", {n} tricks to play; books count the discard's book.")
    verdict = Text()
    if summary.level is not None:
        verdict.append("Best: ", style="bold")
        verdict.append(summary.name, style="bold green")
        verdict.append(f" ({summary.contract}): {best.books} books, scores {summary.score:+d}")
    else:
        low = min_level(min_bid_3)
        verdict.append("No makeable bid", style="bold red")
        verdict.append(f": at most {best.books} books "
                       f"({option_label(st, best.trump, best.ranking).plain}); "
                       f"a bid of {low} would score {summary.score:+d}")
    deal = deal_text(st, hands, kitty)
    rule = Text(summary.scoring.describe(), style="dim")
    return Panel(Group(deal, Text(""), head, table, verdict, rule),
                 title=Text(board_title(board), style="bold"),
                 title_align="left", box=box.ROUNDED, expand=False)


def auction_view(st: Style, board, hands, kitty, auction) -> Panel:
    """``bid`` with no bidder: each seat's best choice and highest makeable
    bid, and the seat that should win the auction."""
    n = len(hands[0])
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("Bidder", no_wrap=True)
    table.add_column("Best choice", no_wrap=True)
    table.add_column("Books", justify="right")
    table.add_column("Highest bid", no_wrap=True)
    table.add_column("Score", justify="right")
    for sa in auction.seats:
        s = sa.summary
        win = sa.seat == auction.winner
        label = Text(f"{SEAT_NAMES[SEATS[sa.seat]]} ({side_name(sa.seat)})")
        if win:
            label.append(f" {st.star}", style="bold yellow")
        table.add_row(
            label,
            option_label(st, s.best.trump, s.best.ranking),
            Text(str(s.best.books), style="bold" if win else ""),
            Text(s.contract if s.level else st.dash, style="" if s.level else "dim"),
            f"{s.score:+d}" if s.level else st.dash,
            style="on grey15" if win else None,
        )
    head = Text()
    head.append("Every seat as the bidder", style="bold")
    head.append(f", {n} tricks to play; books count the discard's book.")
    verdict = Text()
    if auction.forced is not None:
        f = auction.forced
        dealer = SEAT_NAMES[SEATS[auction.winner]]
        verdict.append("No seat can make a bid: ", style="bold red")
        verdict.append(f"the first three pass and the dealer, {dealer}, must bid "
                       if board.dealer() is not None else
                       f"the first three pass and the dealer ({dealer}: no Dealer tag, "
                       f"N speaks first) must bid ")
        verdict.append(f"{f.name}", style="bold")
        verdict.append(f" ({f.contract}): {f.best.books} books, scores {f.score:+d}")
    elif auction.winner is None:
        verdict.append("No seat can make a bid", style="bold red")
    else:
        s = auction.seats[auction.winner].summary
        verdict.append("Should win the auction: ", style="bold")
        verdict.append(f"{SEAT_NAMES[SEATS[auction.winner]]}, ", style="bold")
        verdict.append(f"{s.name}", style="bold green")
        verdict.append(f" ({s.contract}): {s.best.books} books, scores {s.score:+d}")
    rule = Text(auction.seats[0].summary.scoring.describe(), style="dim")
    deal = deal_text(st, hands, kitty)
    return Panel(Group(deal, Text(""), head, table, verdict, rule),
                 title=Text(board_title(board), style="bold"),
                 title_align="left", box=box.ROUNDED, expand=False)


def check_view(st: Style, board, hands, kitty, seat: int, res, scoring=None,
               down=None) -> Panel:
    """``check``: the deal, the verdict, the keep and discard and one
    optimal play; ``down``, the verdict downtown of a no-trump bid given
    without its direction that fails uptown."""
    head = Text()
    head.append(f"{res.contract}", style="bold")
    head.append(f" ({bid_name(res.level, res.trump, res.ranking)}) by "
                f"{SEAT_NAMES[SEATS[seat]]}: ")
    if res.makeable:
        head.append("makeable", style="bold green")
    else:
        head.append("not makeable", style="bold red")
    head.append(f", {res.books} books with the best discard ({res.need} needed)")
    score = Text()
    if res.makeable:
        score.append(f"Made with {res.books} books: scores {res.score(scoring):+d}")
    else:
        score.append(f"Set by {res.set_by}", style="bold red")
        score.append(f": scores {res.score(scoring):+d}")
    if scoring is not None:
        score.append(f" ({scoring.describe()})", style="dim")
    head.append("\n")
    head.append_text(score)
    if down is not None:
        # (the no-trump bidder names the direction after the kitty)
        head.append(f"\nDowntown, {down.contract}: ")
        if down.makeable:
            head.append("makeable", style="bold green")
            head.append(f", {down.books} books (check --contract {down.contract_ascii!r} "
                        "shows its play)")
        else:
            head.append(f"not makeable either, {down.books} books")
    ex = Table.grid(padding=(0, 2))
    ex.add_row(Text("Keep", style="bold"), compact_hand(st, res.keep, res.ranking))
    ex.add_row(Text("Discard", style="bold"), compact_hand(st, res.discard, res.ranking))
    line = books_line_table(st, hands, res)
    deal = deal_text(st, hands, kitty)
    return Panel(Group(deal, Text(""), head, ex, Text(""), Text("One optimal play", style="bold"), line),
                 title=Text(board_title(board), style="bold"), title_align="left", box=box.ROUNDED,
                 expand=False)


def books_line_table(st: Style, hands, res) -> Table:
    """check's line with the bidder's keep: the cards by seat, the winner,
    the books (the discard is the first)."""
    hs = [list(h) for h in hands]
    hs[res.bidder] = list(res.keep)
    pos = Position.make(hs, None if res.trump == "NT" else res.trump, res.ranking, res.bidder)
    return tricks_line_table(st, pos, res.line, res.bidder % 2, 1, "Books")


def tricks_line_table(st: Style, pos: Position, line, side: int, start: int,
                      column: str = "Tricks") -> Table:
    """A line played from ``pos`` trick by trick: the cards by seat (the
    card led underlined), the winner, and the tricks (or books) of the
    side ``side`` (0 N-S, 1 E-W) so far, counted from ``start``."""
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    t.add_column("Trick", justify="right")
    t.add_column("Led")
    for s in SEATS:
        t.add_column(s, justify="center")
    t.add_column("Won by")
    t.add_column(column, justify="right")
    count = start
    cards = {}
    number = 1
    for c in line:
        if not pos.trick:
            led_by = pos.turn
        cards[pos.turn] = (c, pos.turn == pos.leader)
        pos = pos.play(c)
        if not pos.trick:
            winner = pos.leader
            if winner % 2 == side:
                count += 1
            row = []
            for seat in range(4):
                card, led = cards.get(seat, (None, False))
                txt = st.card(card) if card else Text("")
                if led:
                    txt.stylize("underline")
                row.append(txt)
            t.add_row(str(number), SEATS[led_by], *row, SEATS[winner], str(count))
            cards = {}
            number += 1
    return t


def deal_check_view(st: Style, board, hands, res, vulnerable: Optional[bool]) -> Panel:
    """``check`` of a deal without a kitty (bridge, classic whist): the
    deal, the verdict from the opening lead, the score when the
    vulnerability is known, one optimal play."""
    head = Text()
    name = res.contract.name()
    head.append(name if st.symbols else ascii_arrows(name), style="bold")
    head.append(f" by {SEAT_NAMES[SEATS[res.declarer]]}: ")
    if res.makeable:
        head.append("makeable", style="bold green")
    else:
        head.append("not makeable", style="bold red")
    head.append(f", {plural(res.tricks, 'trick')} with best play ({res.need} needed)\n")
    score = res.score(vulnerable)
    if res.makeable:
        head.append(f"Made with {plural(res.tricks, 'trick')}")
    else:
        head.append(f"Set by {res.set_by}", style="bold red")
    if score is not None:
        head.append(f": scores {score:+d}")
        head.append(f" ({'vulnerable' if vulnerable else 'not vulnerable'})", style="dim")
    start = Position.make(hands, res.contract.trump, res.contract.ranking, res.leader)
    line = tricks_line_table(st, start, res.line, res.declarer % 2, 0)
    return Panel(Group(deal_text(st, hands), Text(""), head, Text(""),
                       Text(f"One optimal play, {SEAT_NAMES[SEATS[res.leader]]} leading", style="bold"),
                       line),
                 title=Text(board_title(board), style="bold"), title_align="left", box=box.ROUNDED,
                 expand=False)


# --------------------------------------------------------------------------
# puzzles


def puzzle_header(st: Style, pos: Position, first_leader: int, goal: Goal,
            played_before: int) -> Text:
    t = contract_line(st, pos.trump, pos.ranking, first_leader, _started(pos, played_before))
    if played_before:
        t.append(f"\n{plural(played_before, 'card')} already played: N-S won {pos.ns_tricks}, "
                 f"E-W won {pos.ew_tricks}")
        if pos.trick:
            t.append(f"; trick {pos.ns_tricks + pos.ew_tricks + 1} in progress")
    t.append("\n")
    t.append("Goal: ", style="bold")
    what = "trick" if pos.tricks_left == 1 else "tricks"
    t.append(f"{SIDE_NAMES[goal.side]} to take {goal.tricks} of the {pos.tricks_left} {what} "
             f"from here", style="bold")
    if goal.note:
        t.append(f" ({goal.note})", style="dim")
    t.append(f"\n{SEAT_NAMES[SEATS[pos.turn]]} to play.")
    return t


def puzzle_verdict(st: Style, goal: Goal, value: int, left: int) -> Text:
    t = Text()
    if value >= goal.tricks:
        t.append("Solved" + (" \u2713" if st.symbols else ""), style="bold green")
        t.append(f": {SIDE_NAMES[goal.side]} take {value} with best play")
        if value == goal.tricks:
            t.append(" (the goal exactly)")
        else:
            t.append(f" ({value - goal.tricks} more than the goal)")
    else:
        t.append("Not solved" + (" \u2717" if st.symbols else ""), style="bold red")
        t.append(f": {SIDE_NAMES[goal.side]} take only {value}; the defence holds them "
                 f"{goal.tricks - value} short")
        if goal.tricks > left:
            t.append(f" (the goal asks for more than the {left} tricks left)")
    t.append(".")
    return t


def key_plays_text(st: Style, keys: List[KeyPlay], goal: Goal, solved: bool) -> Text:
    t = Text()
    attack = [k for k in keys if k.attacker]
    defence = [k for k in keys if not k.attacker]
    shown = attack if solved else defence
    if solved:
        t.append("Key plays", style="bold")
        t.append(f" ({SIDE_NAMES[goal.side]}: the goal is lost with any other card)", style="dim")
    else:
        t.append("Defence", style="bold")
        t.append(" (the plays that beat the goal)", style="dim")
    t.append("\n")
    if not shown:
        t.append("  none: every card along the line keeps the verdict\n", style="dim")
    for k in shown:
        t.append(f"  trick {k.trick_no}, {SEAT_NAMES[SEATS[k.seat]]}: ")
        t.append_text(st.cards(k.good))
        t.append("!" if len(k.good) == 1 else " (any of these)", style="bold")
        by: Dict[int, List[str]] = {}
        for c, n in k.bad.items():
            by.setdefault(n, []).append(c)
        for n in sorted(by, reverse=True):
            t.append("; ")
            t.append_text(st.cards(by[n]))
            t.append(f" {st.arrow} {SIDE_NAMES[goal.side]} {n}")
        t.append("\n")
    t.rstrip()
    return t


def puzzle_view(st: Style, board, view: "SolveView", goal, value: int, keys, solved: bool,
                title: Optional[str], comment: Optional[str]) -> "LaidPanel":
    """``puzzles``: the goal, the hands, the verdict, the key plays and the
    solution's line, in a panel green (solved) or red."""
    pos = view.pos
    parts = [
        puzzle_header(st, pos, view.first_leader, goal, view.played_before),
        Text(""),
        compass(st, pos, view.jokers),
        Text(""),
        puzzle_verdict(st, goal, value, pos.tricks_left),
        Text(""),
        key_plays_text(st, keys, goal, solved),
    ]
    if view.trick_rows:
        parts += [Text(""), line_table(st, view)]
        d = decisions_text(st, view)
        if d is not None:
            parts.append(d)
    if comment:
        parts += [Text(""), Text.assemble(("The idea: ", "bold"), comment)]
    head = f"Board {board.label}{board.place}"
    if title:
        head += f": {title}"
    head += f"  {board.file}"
    return LaidPanel(parts, Text(head, style="bold"), "green" if solved else "red")


def batch_summary(done: int, verb: str, bad: int, elapsed: float, note: str = "") -> Text:
    """The last line of ``table``, ``bid`` and ``check`` (stderr): ``4 boards
    tabulated, 0 errors in 1.20 s``."""
    t = Text()
    t.append(f"{plural(done, 'board')} {verb}")
    t.append(", ")
    t.append(plural(bad, "error"), style="bold red" if bad else "")
    if note:
        t.append(f" ({note})")
    t.append(f" in {elapsed:.2f} s")
    return t


def play_over(st: Style, board, pos, goal_line: str = "") -> Text:
    """A board whose Play section records every trick: nothing is left to
    solve; who took how many (and, for a puzzle, its goal's verdict)."""
    t = Text()
    t.append(board_title(board), style="bold")
    t.append(f"\nThe play is over: N-S took {pos.ns_tricks}, E-W {pos.ew_tricks}.")
    if goal_line:
        t.append("\n" + goal_line)
    t.append("\n(review compares the play with double-dummy; --after-trick K solves from an "
             "earlier trick.)", style="dim")
    return t


# The failed puzzles the summary names (300 made a line of 8,000 characters).
MAX_FAILURES_LISTED = 20


def puzzles_summary(solved: int, failed: int, bad: int, elapsed: float, failures) -> Text:
    """The last line of ``puzzles`` (stderr): solved, failed, errors, time."""
    t = Text()
    t.append(f"{solved} solved", style="bold green" if solved else "")
    t.append(", ")
    t.append(f"{failed} failed", style="bold red" if failed else "")
    t.append(", ")
    t.append(f"{bad} error{'s' if bad != 1 else ''}", style="bold red" if bad else "")
    t.append(f" in {elapsed:.2f} s")
    if failures:
        shown = list(failures[:MAX_FAILURES_LISTED])
        more = len(failures) - len(shown)
        t.append("\nfailed: " + ", ".join(shown) + (f" and {more:,} more" if more else ""))
    return t


# --------------------------------------------------------------------------
# bench


def fmt_time(s: Optional[float]) -> str:
    if s is None:
        return "-"
    if s >= 100:
        return f"{s:.0f} s"
    if s >= 1:
        return f"{s:.2f} s"
    return f"{s * 1000:.1f} ms"


def fmt_count(n: Optional[float]) -> str:
    if n is None:
        return "-"
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= div:
            return f"{n / div:.2f}{unit}"
    return f"{n:.0f}"


def fmt_tables(reports: Sequence[SetReport]) -> str:
    """``64 MB`` or ``64 MB (exchange 512 MB)``: the table sizes used."""
    from whist_solve.bench import GENERATED_SETS
    plain = [r.tt_mb for r in reports if r.name not in GENERATED_SETS]
    main = plain[0] if plain else reports[0].tt_mb
    other = [f"{r.name} {r.tt_mb:g} MB" for r in reports if r.tt_mb != main]
    return f"{main:g} MB" + (f" ({', '.join(other)})" if other else "")


def fmt_ratio(r: Optional[float]) -> str:
    return "-" if r is None else f"{r:.2f}x"


def _peer_row(rep, ours_of, times, values, mismatches) -> list:
    """The cells of one set against one peer, from ``compared`` on."""
    from whist_solve.bench import ratios, time_stats
    if not times:
        return ["0", "-", "-", "-", "-", "-", "[yellow]not comparable[/]"]
    ours = time_stats([r.seconds for tk, r in zip(rep.tasks, rep.results) if ours_of(tk)])
    theirs = time_stats(times)
    ratio = ratios(ours, theirs)
    nvals = sum(len(v) for v in values)
    verdict = (f"[green]all {nvals} equal[/]" if not mismatches
               else f"[bold red]{len(mismatches)} MISMATCH(ES)[/]")
    return [str(len(times)), fmt_time(theirs["total"]), fmt_ratio(ratio["total"]),
            fmt_ratio(ratio["median"]), fmt_ratio(ratio["p90"]), fmt_ratio(ratio["max"]), verdict]


def bench_report(reports, jobs: int, repeat: int, compare_dds: bool, dds_desc: Optional[str],
                 comparison: Optional[List[dict]], baseline, threshold: float,
                 bs_desc: Optional[str] = None) -> list:
    """``bench`` for people (stdout): the table of the sets, DDS and
    bridge-solver (``bs_desc``: with ``--compare-bridge-solver``) side by
    side in one table, the comparison with a baseline; a list of
    renderables (tables, and lines in rich markup) to print in order."""
    from whist_solve.bench import MIN_REGRESSION_SECONDS
    from whist_solve.bridge_solver import applies as bs_applies
    parts: list = []
    t = Table(title=f"whist-solve bench  ({jobs} process{'es' if jobs > 1 else ''}, "
                    f"TT {fmt_tables(reports)}, empty table per deal"
                    + ("" if all(r.symmetry for r in reports) else ", every result searched")
                    + (f", fastest of {repeat} per deal" if repeat > 1 else "") + ")",
              title_justify="left")
    for col in ("set", "deals", "total", "deals/s", "nodes", "nodes/s", "median", "p90", "max", "peak mem"):
        t.add_column(col, justify="left" if col == "set" else "right", no_wrap=True)
    for rep in reports:
        j = rep.to_json()
        t.add_row(rep.name, str(j["deals"]), fmt_time(rep.wall),
                  f"{j['deals_per_s']:.2f}" if j["deals_per_s"] else "-",
                  fmt_count(j["nodes"]), fmt_count(j["nodes_per_s"]),
                  fmt_time(j["median"]), fmt_time(j["p90"]), fmt_time(j["max"]),
                  f"{j['peak_rss_mb']:.0f} MB")
    parts.append(t)
    if jobs > 1:
        parts.append("total is wall time with all processes; median/p90/max are per deal in one process; "
                  "peak mem is the largest worker's.")
    peers = []      # (name, description, which deals it solves, report -> its fields)
    if compare_dds:
        down = any(t.ranking == "down" for rep in reports for t in rep.tasks)
        peers.append(("DDS", f"{dds_desc}" + ("; downtown by relabelling the ranks for DDS"
                                               if down else ""),
                      lambda tk: tk.dds_ok, lambda rep: (rep.dds_times, rep.dds_values,
                                                         rep.mismatches, rep.dds_note)))
    if bs_desc is not None:
        peers.append(("bridge-solver", bs_desc, bs_applies,
                      lambda rep: (rep.bs_times, rep.bs_values, rep.bs_mismatches, rep.bs_note)))
    if peers:
        both = len(peers) > 1
        d = Table(title=(f"ours / {peers[0][0]}  ({peers[0][1]})" if not both else
                         "ours / peers  (" + "; ".join(f"{n}: {desc}" for n, desc, _, _ in peers)
                         + ")"),
                  title_justify="left")
        cols = ["set"] + (["peer"] if both else []) + ["compared", f"{peers[0][0]} total"
                                                          if not both else "peer total",
                                                          "total", "median", "p90", "max", "values"]
        for col in cols:
            d.add_column(col, justify="left" if col in ("set", "peer") else "right", no_wrap=True)
        for rep in reports:
            for name, _, which, fields in peers:
                times, values, mismatches, _note = fields(rep)
                d.add_row(rep.name, *([name] if both else []),
                          *_peer_row(rep, which, times, values, mismatches))
        parts.append(d)
        if compare_dds:
            parts.append("ratios compare the per-deal solve times (ours / DDS); DDS runs one thread in a "
                         "process of its own and, with one job, solves each deal right after us.")
        if bs_desc is not None:
            parts.append("ours / bridge-solver: its time per deal is one whole run of the binary "
                         "(process start included); with one job it runs right after us on each deal.")
        for rep in reports:
            for name, _, _, fields in peers:
                note = fields(rep)[3]
                if note:
                    parts.append(f"[yellow]{rep.name}: {note}[/]")
    if comparison is not None:
        c = Table(title=f"against baseline {baseline} (regression: > {threshold:g}% and "
                        f"{MIN_REGRESSION_SECONDS * 1000:g} ms slower)",
                  title_justify="left")
        for col in ("set", "nodes before", "nodes now", "search", "time before", "time now", "change", "verdict"):
            c.add_column(col, justify="left" if col in ("set", "search", "verdict") else "right")
        for e in comparison:
            if "note" in e:
                c.add_row(e["set"], "", "", e["note"], "", "", "", "")
                continue
            search = ("same" if not e["nodes_changed"]
                      else "[yellow]changed ({} deal(s))[/]".format(len(e["nodes_changed"]))
                      if e.get("nodes_comparable", True) else "other settings")
            if e["values_changed"]:
                search += f", [bold red]values differ: {', '.join(e['values_changed'][:5])}[/]"
            r = e["time_ratio"]
            verdict = ("[bold red]VALUES CHANGED[/]" if e["values_changed"]
                       else "[bold red]REGRESSION[/]" if e["regression"]
                       else "[yellow]other settings[/]" if e.get("settings_changed")
                       else "[green]faster[/]" if r is not None and r < 1 - threshold / 100 else "ok")
            c.add_row(e["set"], fmt_count(e["nodes_before"]), fmt_count(e["nodes_now"]), search,
                      fmt_time(e["time_before"]), fmt_time(e["time_now"]),
                      "-" if r is None else f"{(r - 1) * 100:+.1f}%", verdict)
        parts.append(c)
    return parts


def bench_alerts(reports, comparison: Optional[List[dict]], threshold: float) -> List[str]:
    """The lines of ``bench`` that are always loud, on stderr (rich markup):
    DDS mismatches, time regressions, changed node counts and values."""
    parts: List[str] = []
    # mismatches are always loud, on stderr
    for rep in reports:
        for m in rep.mismatches:
            parts.append(f"[bold red]MISMATCH[/] {rep.name} board {m['board']} {m['what']} ({m['ranking']}): "
                      f"whist-solve {m['ours']}, DDS {m['dds']}")
        for m in rep.bs_mismatches:
            parts.append(f"[bold red]MISMATCH[/] {rep.name} board {m['board']} {m['what']} ({m['ranking']}): "
                      f"whist-solve {m['ours']}, bridge-solver {m['bridge_solver']}")
    if comparison is not None:
        for e in comparison:
            if e.get("regression"):
                parts.append(f"[bold red]REGRESSION[/] {e['set']}: {fmt_time(e['time_before'])} -> "
                          f"{fmt_time(e['time_now'])} ({(e['time_ratio'] - 1) * 100:+.1f}%, "
                          f"threshold {threshold:g}%)")
            if e.get("settings_changed"):
                parts.append(f"[bold yellow]warning:[/] {e['set']}: the baseline was taken with "
                             f"{', '.join(e['settings_changed'])}: "
                             + ("node counts and times" if not e.get("nodes_comparable", True)
                                else "times")
                             + " are not comparable (no regression is called)")
            if e.get("nodes_changed") and e.get("nodes_comparable", True):
                parts.append(f"note: {e['set']}: node counts changed on {len(e['nodes_changed'])} deal(s) "
                          f"({e['nodes_before']} -> {e['nodes_now']}): the search changed")
            if e.get("values_changed"):
                parts.append(f"[bold red]VALUES CHANGED[/] {e['set']}: boards {', '.join(e['values_changed'])}")
    return parts


# --------------------------------------------------------------------------
# play


def play_result(pos: Position, ns: int, total: int) -> Text:
    """``play``: the tricks won so far and the double-dummy result."""
    t = Text()
    t.append(f"Tricks won: N-S {pos.ns_tricks}, E-W {pos.ew_tricks}.  ")
    t.append("Double-dummy result: ", style="bold")
    t.append(f"N-S {ns}, E-W {total - ns}", style="bold green")
    return t


def play_goal(goal, got: int) -> Text:
    """``play``: whether the board's goal (a puzzle.Goal) is reached with
    best play; a contract's says how it was counted (the kitty's book)."""
    need = goal.tricks
    t = Text(f"Goal {SIDE_NAMES[goal.side]} {need} ")
    t.append(f"({goal.note})" if goal.note else "(from the loaded position)")
    t.append(": ")
    t.append("reached" if got >= need else "missed", style="bold green" if got >= need else "bold red")
    t.append(f" with best play from here ({got}).")
    return t


def play_goal_result(goal, got: int) -> Text:
    """``play``, the hand over: the goal reached or missed, a contract made
    or down (``got``: the goal side's tricks from the loaded position)."""
    need = goal.tricks
    side = SIDE_NAMES[goal.side]
    style = "bold green" if got >= need else "bold red"
    if goal.source == "Contract":
        # (a hand loaded after some tricks: the contract counts them all;
        # "took 0 tricks (0 needed)" was said of a hand loaded at its end)
        total, whole = goal.won + got, goal.whole
        note = goal.note.removesuffix(f", {goal.won} already won")
        took = (f"{total}" if goal.won
                else f"{got} trick{'s' if got != 1 else ''} ({need} needed)")
        t = Text(f"{note[:1].upper()}{note[1:]}; {side} took {took}: ")
        t.append("made" if total >= whole else f"down {whole - total}", style=style)
        if total > whole:
            t.append(f" with {plural(total - whole, 'overtrick')}")
    else:
        # (a Goal tag counts from the loaded position, not from the deal's
        # start: "took 2" beside a score of 3 needs saying so)
        t = Text(f"Goal {side} {need} (from the loaded position): {side} took {got} from there, ")
        t.append("reached" if got >= need else "missed", style=style)
    t.append(".")
    return t


def play_classic_score(ns: int, ew: int) -> Text:
    """``play``, a whole deal of classic whist over: the side with more of
    the 13 tricks scores tricks - 6."""
    side, got = ("N-S", ns) if ns > ew else ("E-W", ew)
    t = Text(f"Classic whist: {side} took {got} of {ns + ew} tricks and score ")
    t.append(f"{got - 6} point{'s' if got - 6 != 1 else ''}", style="bold green")
    t.append(" (tricks - 6).")
    return t


def play_move(st: Style, seat: int, card: str, cost: int, values: Mapping[str, int],
              nxt: Position, forced: bool = False) -> Text:
    """``play``: a card played (``forced``: played for the user, the only
    legal card), and what it cost its side."""
    t = Text(f"{SEAT_NAMES[SEATS[seat]]} plays ")
    t.append_text(st.card(card))
    if forced:
        t.append(" (forced)", style="dim")
    side = side_name(seat)
    # (the values count the trick this card is played to: said so when the
    # card ends it, as the next card's value counts from the next trick)
    here = "from here" if nxt.trick else "from this trick on"
    if cost:
        t.append(f": a mistake, {side} lose {cost} trick{'s' if cost > 1 else ''} "
                 f"({side} now take {values[card]} {here}, not {max(values.values())})",
                 style="bold red")
    else:
        t.append(f" ({side} {values[card]} {here})", style="dim")
    if not nxt.trick:
        t.append(f"; {SEATS[nxt.leader]} wins the trick")
    t.append(".")
    return t


def play_undone(st: Style, seat: int, card: str) -> Text:
    """``play``: a move taken back."""
    t = Text("Took back ")
    t.append_text(st.card(card))
    t.append(f" ({SEATS[seat]}).")
    return t


def play_hint(st: Style, pos: Position, cards: Sequence[str], best: int, every: bool) -> Text:
    """``play``: the best cards of the seat on turn."""
    t = Text("Hint: ")
    t.append_text(st.cards(cards))
    side = side_name(pos.turn)
    left = pos.tricks_left
    t.append(f" ({side} take {best} of the {left} trick{'s' if left != 1 else ''} from here"
             + ("; every card is as good" if every else "") + ").")
    return t



# --------------------------------------------------------------------------
# review


def review_view(st: Style, board, review, trump: Optional[str], ranking: str,
                first_leader: int, mistakes_only: bool = False) -> Panel:
    """``review``: the verdict against the Result tag, the tricks each side
    lost, then the recorded play card by card: the tricks of the card's side
    from the position on before and after it, and for a costly card the
    cards that were right."""
    sep = " \u00b7 " if st.symbols else " | "
    head = contract_line(st, trump, ranking, first_leader, started=bool(review.cards))
    if review.contract is not None:
        level, strain, declarer = review.contract
        head.append(sep)
        head.append(f"contract {level}")
        head.append_text(st.strain(strain))
        suffix = review.contract_suffix         # (plain ASCII: " down")
        if st.symbols and suffix.endswith(" down"):
            suffix = suffix[:-5] + "\u2193"
        head.append(f"{suffix} by {SEATS[declarer]}")
    verdict = Text(review.verdict(), style="bold")
    cost = review.cost
    d, o = review.declarer_side, review.defence_side
    role = {"declarer": " (declarer)", "the bidder's side": " (bidder)", "": ""}.get(
        review.role, f" ({review.role})")
    lost = Text(f"Tricks lost by their own cards: {SIDE_NAMES[d]}{role} {cost[d]}, "
                f"{SIDE_NAMES[o]}{' (defence)' if review.role else ''} {cost[o]}.")
    parts = [head, Text(""), verdict, lost]
    rows = [c for c in review.cards if c.cost > 0] if mistakes_only else list(review.cards)
    if rows:
        tbl = Table(title="The play" + (" (the costly cards)" if mistakes_only else ""),
                    title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        tbl.add_column("trick", justify="right")
        tbl.add_column("seat", justify="center")
        tbl.add_column("card")
        tbl.add_column("side", justify="center")
        tbl.add_column("before", justify="right")
        tbl.add_column("after", justify="right")
        tbl.add_column("lost", justify="right")
        tbl.add_column("right was")
        last_trick = None
        for c in rows:
            bad = c.cost > 0
            tbl.add_row(str(c.trick) if c.trick != last_trick else "", SEATS[c.seat], st.card(c.card),
                        SIDE_NAMES[c.side], str(c.before), str(c.after),
                        Text(str(c.cost), style="bold red") if bad else Text("", style="dim"),
                        st.cards(sort_cards(c.best, ranking)) if bad else Text(""),
                        style=None)
            last_trick = c.trick
        parts += [Text(""), tbl,
                  Text("before, after: tricks of the card's side from the position on with best "
                       "play (the current trick included)", style="dim")]
    elif mistakes_only:
        parts += [Text(""), Text("No card cost its side a trick.", style="dim")]
    return Panel(Group(*parts), title=Text(board_title(board), style="bold"), title_align="left",
                 box=box.ROUNDED, expand=False)


# simulate

Z95 = 1.96          # a 95% interval is the mean +- 1.96 standard errors
_SPARKS = " \u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"
_SPARKS_ASCII = " .:-=+*#%@"


def _pm(st: Style, se: Optional[float], digits: int = 2) -> str:
    """``± 0.18``: the half-width of the 95% interval."""
    if se is None:
        return ""
    pm = "\u00b1" if st.symbols else "+-"
    return f" {pm}{Z95 * se:.{digits}f}"


def _share_se(p: Optional[float], n: int) -> Optional[float]:
    if p is None or n < 2:
        return None
    return (p * (1 - p) / n) ** 0.5


def _share_interval(st: Style, p: Optional[float], n: int) -> str:
    """The 95% interval of a share of n deals, as shown after it: ±, or
    for a share of 0% or 100%, where ± would say ±0% whatever n, the far
    end of the Wilson score interval ("(95%: up to 56%)" for 0 of 3)."""
    if p is None or n < 2:
        return ""
    if p in (0.0, 1.0):
        z2 = Z95 * Z95
        far = z2 / (n + z2)         # Wilson's far bound from 0 (or 1) successes in n
        return f" (95%: up to {100 * far:.0f}%)" if p == 0.0 else f" (95%: down to {100 * (1 - far):.0f}%)"
    return f" ({'±' if st.symbols else '+-'}{100 * Z95 * _share_se(p, n):.0f}%)"


def _pct(p: Optional[float]) -> str:
    return "" if p is None else f"{100 * p:.0f}%"


def sparkline(st: Style, hist: Mapping[str, int], lo: int, hi: int) -> Text:
    """One character per value from ``lo`` to ``hi``, its height the share
    of the deals (a histogram on one line)."""
    marks = _SPARKS if st.symbols else _SPARKS_ASCII
    counts = [hist.get(str(v), 0) for v in range(lo, hi + 1)]
    top = max(counts) if counts and max(counts) else 1
    out = ""
    for c in counts:
        out += marks[0] if c == 0 else marks[max(1, round(c / top * (len(marks) - 1)))]
    return Text(out, style="cyan")


def histogram_table(st: Style, hist: Mapping[str, int], what: str, width: int = 30) -> Table:
    """A histogram drawn with bars: one row per value, the bar, the deals
    and their share."""
    table = Table(box=None, show_header=True, pad_edge=False, header_style="bold")
    table.add_column(what, justify="right")
    table.add_column("", no_wrap=True)
    table.add_column("deals", justify="right")
    table.add_column("share", justify="right")
    total = sum(hist.values()) or 1
    top = max(hist.values()) if hist else 1
    keys = sorted(int(k) for k in hist)
    for v in range(keys[0], keys[-1] + 1) if keys else ():
        c = hist.get(str(v), 0)
        k = round(c / top * width)
        bar = ("\u2588" if st.symbols else "#") * k
        if c and not k:
            bar = "\u258f" if st.symbols else "|"
        table.add_row(str(v), Text(bar, style="cyan"), str(c), f"{100 * c / total:.1f}%")
    return table


def _known_hands_text(st: Style, board) -> Text:
    t = Text()
    for seat, h in enumerate(board.known_hands()):
        if seat:
            t.append("   ")
        t.append(f"{SEATS[seat]} ", style="bold")
        if h is None:
            t.append("?", style="dim")
        else:
            t.append_text(compact_hand(st, h, "up"))
    return t


def _sim_head(st: Style, out: Mapping, extra: str = "") -> Text:
    t = Text()
    t.append(plural(out['samples'], "sample"), style="bold")
    t.append(f", seed {out['seed']}")
    if extra:
        t.append(f"; {extra}")
    if out.get("partial"):
        t.append("  PARTIAL (stopped early)", style="bold yellow")
    return t


def simulate_progress(st: Style, agg, where: str) -> str:
    """The progress bar's description: the running best answer."""
    out = where
    if not agg.samples:
        return out
    q = agg.question
    p = agg.problem
    if q == "bid":
        j, lv = agg.best()
        t, r = p.options[j]
        score = agg.score_total(j, lv) / agg.samples
        return f"{out}: best bid {contract_name(lv, t, r)} {score:+.2f}"
    if q == "lead":
        j = agg.best()
        return f"{out}: best lead {p.cards[j]} {agg.sums[j] / agg.samples:.2f} tricks"
    return out


def _sim_verdict(best, say: Callable[[Text], Optional[Text]], what: str) -> Text:
    """The top of a simulation's view: "No sample solved." when there is no
    ``best`` option; else what ``say`` writes about the best, then on a line
    of its own the options within the noise of it (the text ``say``
    returns) or, when it returns None, that it is clearly ahead."""
    top = Text()
    if best is None:
        top.append("No sample solved.", style="bold red")
        return top
    close = say(top)
    top.append("\n")
    if close is not None:
        top.append("Within the noise of it: ", style="yellow")
        top.append_text(close)
    else:
        top.append(f"Clearly ahead of every other {what}.", style="dim")
    return top


def _sim_panel(board, parts) -> Panel:
    return Panel(Group(*parts), title=Text(board_title(board), style="bold"), title_align="left",
                 box=box.ROUNDED, expand=False)


# play: the compact screen (fits 80 x 24)


def one_line_hand(st: Style, cards, ranking: str) -> Text:
    """``♠KJ74 ♥Q4 ♦JT7 ♣— JH``: a hand on one line (a void as a dash)."""
    ordered = sort_cards(cards, ranking)
    t = Text()
    for i, s in enumerate(SUITS):
        if i:
            t.append(" ")
        ranks = "".join(c[1] for c in ordered if c not in JOKERS and c[0] == s)
        t.append(st.suit(s) + (ranks or st.dash), style=SUIT_STYLES[s] if ranks else "dim")
    for j in JOKERS:
        if j in cards:
            t.append(" ")
            t.append(j, style=JOKER_STYLE)
    return t


def play_board_line(st: Style, board, name: str, nboards: int, pos: Position,
                    kitty: Sequence[str] = ()) -> Text:
    """``play``: one or two lines: the board, its file, the trump and
    ranking, and the kitty in bid whist."""
    head = Text(f"Board {board.label}{board.place}", style="bold")
    title = (board.tags.get("Title") or "").strip()
    if title:
        head.append(f": {title}", style="bold")
    head.append(f"  {name}", style="dim")
    if nboards > 1:
        head.append(f" ({nboards} boards)", style="dim")
    head.append("  ")
    if pos.trump is None:
        head.append("No-trump", style="bold")
    else:
        head.append("Trump ", style="bold")
        head.append_text(st.strain(pos.trump))
        head.append(f" {strain_name(pos.trump)}", style="bold")
    head.append(f", {RANKING_NAMES[pos.ranking]}")
    if kitty:
        head.append("\nKitty ", style="bold")
        head.append_text(compact_hand(st, kitty, pos.ranking))
    return head


def play_compass_rows(st: Style, pos: Position) -> Group:
    """The compass with North and South centred over the whole width."""
    played = {(pos.leader + i) % 4: c for i, c in enumerate(pos.trick)}

    def seat_line(seat: int) -> Text:
        t = Text(SEAT_NAMES[SEATS[seat]], style="bold yellow" if seat == pos.turn else "bold")
        t.append(("\u25b8 " if st.symbols else "> ") if seat == pos.turn and not pos.is_over()
                 else "  ")
        t.append_text(one_line_hand(st, pos.hands[seat], pos.ranking))
        return t

    def in_trick(seat: int) -> Text:
        c = played.get(seat)
        if c is not None:
            return st.card(c)
        return Text("\u00b7 " if st.symbols else ". ", style="dim")

    def card_at(column: int, seat: int) -> Text:
        t = Text(" " * column)
        t.append_text(in_trick(seat))
        return t

    lines = []
    north = seat_line(0)
    north.pad_left(20)
    lines.append(north)
    lines.append(card_at(37, 0))
    west = seat_line(3)
    west.truncate(33, pad=True)
    mid = Text(" " * 2)
    mid.append_text(in_trick(3))
    mid.append(" " * 3)
    mid.append_text(in_trick(1))
    mid.append(" " * 2)
    lines.append(west + mid + seat_line(1))
    lines.append(card_at(37, 2))
    south = seat_line(2)
    south.pad_left(20)
    lines.append(south)
    return Group(*lines)


def play_tricks(st: Style, rows: Sequence[LineTrick], most: int = 9) -> Optional[Text]:
    """``play``: the tricks played, three to a line (the last ``most``):
    ``3 W ♣K ♣5 ♣2 ♣3 >W``, the cards from the leader's; a card that cost
    its side tricks has a ``*``."""
    done = [r for r in rows if r.winner is not None]
    if not done:
        return None
    shown = done[-most:]
    t = Text("Tricks played", style="bold")
    if len(done) > len(shown):
        t.append(f" (the last {len(shown)} of {len(done)})", style="dim")
    for i, r in enumerate(shown):
        t.append("\n" if i % 3 == 0 else "   ")
        t.append(f"{r.number:>2} {SEATS[r.leader]} ")
        for k in range(4):
            seat = (r.leader + k) % 4
            c = r.cards.get(seat)
            if c is None:
                continue
            txt = st.card(c)
            if seat in r.before:
                txt.stylize("dim")
            t.append_text(txt)
            t.append("*" if seat in r.choice_seats else " ", style="bold yellow")
        t.append(f"{st.arrow}{SEATS[r.winner]}", style="dim")
    return t


def play_values(st: Style, v: SolveView) -> Text:
    """``play``: the legal cards of the seat on turn with the tricks its
    side takes after each, cards of equal value on one line, best first."""
    side = side_name(v.pos.turn)
    t = Text(f"{SEAT_NAMES[SEATS[v.pos.turn]]}'s cards, {side} tricks after each:", style="bold")
    best = max(v.cards.values()) if v.cards else None
    by_value: Dict[int, List[str]] = {}
    for c, n in v.cards.items():
        by_value.setdefault(n, []).append(c)
    for n in sorted(by_value, reverse=True):
        t.append("\n")
        if n == best:
            t.append(f"{n:>3}  ", style="bold green")
            t.append(f"{st.star} best", style="bold green")
        else:
            t.append(f"{n:>3}  ")
            t.append(f"{n - best:+d}".ljust(6), style="red")
        t.append("  ")
        t.append_text(st.cards(sort_cards(by_value[n], v.ranking), " "))
    return t


def play_summary(moves, before: int, pos: Position, start_ns: int, over: bool) -> Text:
    """``play``: the summary when the board ends or on quit: the tricks, the
    double-dummy result from the loaded position, the mistakes (who, which
    trick, what they cost) and the tricks each side lost."""
    t = Text("Summary: ", style="bold")
    total = pos.ns_tricks + pos.ew_tricks + pos.tricks_left
    if over:
        t.append(f"N-S {pos.ns_tricks}, E-W {pos.ew_tricks}")
    else:
        t.append(f"{len(moves)} card{'s' if len(moves) != 1 else ''} played, "
                 f"N-S {pos.ns_tricks}, E-W {pos.ew_tricks} so far")
    t.append(f"; double-dummy from the loaded position: N-S {start_ns}, E-W {total - start_ns}.")
    bad = [(i, m) for i, m in enumerate(moves) if m.cost > 0]
    lost = {"N-S": 0, "E-W": 0}
    for _i, m in bad:
        lost[side_name(m.seat)] += m.cost
    t.append(f"\nMistakes: {len(bad)}")
    if bad:
        parts = []
        for i, m in bad:
            trick = (before + i) // 4 + 1
            parts.append(f"{SEATS[m.seat]} {m.card} at trick {trick} "
                         f"(-{m.cost})")
        t.append(": " + ", ".join(parts))
    t.append(f".  Tricks lost: N-S {lost['N-S']}, E-W {lost['E-W']}.")
    return t


def simulate_view(st: Style, board, agg, out: Mapping) -> Panel:
    """``simulate``: the recommended bid or lead on top, then every option
    with its 95% interval and its histogram."""
    if out["question"] == "bid":
        return sim_bid_view(st, board, agg, out)
    if out["question"] == "lead":
        return sim_lead_view(st, board, agg, out)
    return sim_tricks_view(st, board, agg, out)


def sim_bid_view(st: Style, board, agg, out: Mapping) -> Panel:
    from whist_solve.bid import min_level
    p = agg.problem
    parts: list = [_known_hands_text(st, board), Text("")]
    best = out.get("best")

    def say(top: Text) -> Optional[Text]:
        top.append("Recommended bid: ", style="bold")
        top.append(f"{best['bid']} ({best['contract']})", style="bold green")
        top.append(f", expected score {best['score']:+.2f}{_pm(st, best['stderr'])} (95%)")
        close = out.get("close") or []
        if not close:
            return None
        return Text(", ".join(close[:12]) + (f" and {len(close) - 12} more" if len(close) > 12 else ""))

    parts.append(_sim_verdict(best, say, "bid"))
    parts.append(_sim_head(st, out, f"bidder {SEAT_NAMES[out['bidder']]}; books count the "
                                    "discard's book, best exchange of each deal"))
    keys = [int(k) for o in out["options"] for k in o["hist"]]
    lo, hi = (min(keys), max(keys)) if keys else (0, 0)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("Choice", no_wrap=True)
    table.add_column("Books (95%)", justify="right", no_wrap=True)
    table.add_column(f"books {lo}..{hi}", no_wrap=True)
    table.add_column("Bid", no_wrap=True)
    table.add_column("makes", justify="right", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    low = min_level(p.min_bid_3)
    for j, o in enumerate(out["options"]):
        is_best = best is not None and (o["trump"], o["ranking"]) == (best["trump"], best["ranking"])
        label = option_label(st, o["trump"], o["ranking"])
        if is_best:
            label.append(f" {st.star}", style="bold yellow")
        mean = "" if o["mean"] is None else f"{o['mean']:.2f}{_pm(st, o['stderr'])}"
        cand = [(v, lv) for lv, v in ((int(k), v) for k, v in o["score"].items())
                if v is not None and lv >= low]
        bb = max(cand) if cand else None
        table.add_row(label, mean, sparkline(st, o["hist"], lo, hi),
                      "" if bb is None else contract_name(bb[1], o["trump"], o["ranking"]),
                      "" if bb is None else _pct(o["make"][str(bb[1])]),
                      "" if bb is None else f"{bb[0]:+.2f}",
                      style="on grey15" if is_best else None)
    if out["samples"]:
        parts.append(table)         # (without a sample, a table of empty rows)
    if p.scoring.nt_double or p.scoring.boston:
        parts.append(Text(p.rules.describe(), style="dim"))
    if best is not None:
        o = next(o for o in out["options"]
                 if (o["trump"], o["ranking"]) == (best["trump"], best["ranking"]))
        parts.append(Text(f"Books with {option_label(st, o['trump'], o['ranking']).plain}:",
                          style="bold"))
        parts.append(histogram_table(st, o["hist"], "books"))
    return _sim_panel(board, parts)


def sim_lead_view(st: Style, board, agg, out: Mapping) -> Panel:
    n = out["samples"]
    cards = out["cards"]
    # the leader's side declares (bid whist: the bidder leads): its chance to
    # make the contract is shown, else the defence's to set it
    declares = agg.problem.leader_declares
    parts: list = [_known_hands_text(st, board), Text("")]
    best = out.get("best")

    def say(top: Text) -> Optional[Text]:
        b = cards[best]
        top.append("Best lead: ", style="bold")
        top.append_text(st.cards([best] + b["equal"]))
        if b["equal"]:
            top.append(" (equal cards)", style="dim")
        share = _lead_share(b, out["contract"] is None, declares)
        top.append(f", {b['mean']:.2f}{_pm(st, b['stderr'])} tricks for "
                   f"{out['leader']}'s side, ")
        if out["contract"] is None:
            top.append(f"takes the majority in {_pct(share)}")
        else:
            top.append(f"{'makes' if declares else 'sets'} {out['contract']} in {_pct(share)}")
        if not agg.problem.spec.fixed:         # (every hand known: one deal, exact)
            top.append(_share_interval(st, share, n))
        close = [c for c, o in cards.items() if o["close"] and c != best and c not in b["equal"]]
        return st.cards(close, ", ") if close else None

    parts.append(_sim_verdict(best, say, "lead"))
    if out["contract"] is None:
        # (the Majority column is the leader's side's share)
        side = "N-S" if SEATS.index(out["leader"]) % 2 == 0 else "E-W"
        parts.append(_sim_head(st, out, f"{out['leader']} leads; {side} (the leader's side) "
                                        f"need {agg.problem.spec.hand_size // 2 + 1} of "
                                        f"{agg.problem.spec.hand_size} tricks for the majority"))
    elif declares:
        book = agg.problem.kitty_book
        parts.append(_sim_head(st, out, f"{out['leader']} leads, {out['contract']} by "
                                        f"{out['declarer']}, who needs {out['need']} tricks"
                               + (f" ({out['need'] + book} books with the kitty's)" if book else "")))
    else:
        parts.append(_sim_head(st, out, f"{out['leader']} leads against {out['contract']} by "
                                        f"{out['declarer']}, who needs {out['need']} tricks"))
    keys = [int(k) for o in cards.values() for k in o["hist"]]
    lo, hi = (min(keys), max(keys)) if keys else (0, 0)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("Lead", no_wrap=True)
    table.add_column("Tricks (95%)", justify="right", no_wrap=True)
    table.add_column("Majority" if out["contract"] is None
                     else ("Makes" if declares else "Sets"), justify="right")
    table.add_column(f"tricks {lo}..{hi}", no_wrap=True)
    table.add_column("", no_wrap=True)
    groups = [g for g in out["groups"]]
    groups.sort(key=lambda g: (-(cards[g[0]]["mean"] or 0), list(cards).index(g[0])))
    for g in groups:
        o = cards[g[0]]
        is_best = best in g
        label = st.cards(g, "")
        if is_best:
            label.append(f" {st.star}", style="bold yellow")
        note = "best" if is_best else ("within the noise" if o["close"] else "")
        mean = "" if o["mean"] is None else f"{o['mean']:.2f}{_pm(st, o['stderr'])}"
        share = _lead_share(o, out["contract"] is None, declares)
        table.add_row(label, mean, _pct(share), sparkline(st, o["hist"], lo, hi),
                      Text(note, style="yellow" if note == "within the noise" else "dim"),
                      style="on grey15" if is_best else None)
    if n:
        parts.append(table)         # (without a sample, a table of empty rows)
    if best is not None:
        parts.append(Text(f"Tricks of {out['leader']}'s side after {best}:", style="bold"))
        parts.append(histogram_table(st, cards[best]["hist"], "tricks"))
    return _sim_panel(board, parts)


def _lead_share(o: Mapping, majority: bool, declares: bool) -> Optional[float]:
    """The share shown for a lead: without a contract, how often the
    leader's side takes the majority of the tricks (a tie is nobody's);
    else the declaring side's chance to make, or the defence's to set."""
    if majority:
        return o["majority"]
    if o["set"] is None:
        return None
    return 1 - o["set"] if declares else o["set"]


def sim_tricks_view(st: Style, board, agg, out: Mapping) -> Panel:
    parts: list = [_known_hands_text(st, board), Text("")]
    if not out["samples"]:
        parts.append(_sim_verdict(None, lambda top: None, "strain"))
    parts.append(_sim_head(st, out, "N-S tricks by strain and leader (mean, 95% interval)"))
    if not out["samples"]:
        return _sim_panel(board, parts)
    table_out = out["table"]
    keys = [int(k) for s in table_out.values() for r in s.values() for o in r.values()
            for k in o["hist"]]
    lo, hi = (min(keys), max(keys)) if keys else (0, 0)
    rankings = list(next(iter(table_out.values())).keys()) if table_out else []
    for r in rankings:
        leaders = list(next(iter(table_out.values()))[r].keys())
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                      title=RANKING_NAMES[r] if len(rankings) > 1 else None)
        table.add_column("Strain", no_wrap=True)
        for ld in leaders:
            table.add_column(f"{ld} leads", justify="right", no_wrap=True)
        table.add_column(f"{lo}..{hi}, {leaders[0]} leads", no_wrap=True)
        for strain, by_rank in table_out.items():
            row = [st.strain(strain)]
            for ld in leaders:
                o = by_rank[r][ld]
                row.append("" if o["mean"] is None else
                           f"{o['mean']:.2f}{_pm(st, o['stderr'], 1).lstrip()}")
            row.append(sparkline(st, by_rank[r][leaders[0]]["hist"], lo, hi))
            table.add_row(*row)
        parts.append(table)
    return _sim_panel(board, parts)


def simulate_bench_table(results: Sequence[Mapping]) -> Table:
    """``bench --set simulate``: samples per second of each question."""
    table = Table(title="simulate (one process)", box=box.SIMPLE_HEAD, title_justify="left")
    table.add_column("question")
    for name in ("samples", "time", "samples/s", "slowest", "nodes"):
        table.add_column(name, justify="right")
    for r in results:
        table.add_row(r["question"], str(r["samples"]), fmt_time(r["seconds"]),
                      f"{r['samples_per_second']:.2f}" if r["samples_per_second"] else "",
                      fmt_time(r["slowest"]), fmt_count(r["nodes"]))
    return table
