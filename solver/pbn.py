"""Reading and writing PBN files (SPEC §2): PBN 2.1 import format plus the
whist tags.  This module is the syntax; what the tags mean (the deal, the
trump, the leader, the Play section replayed) is :mod:`whist_solve.board`.

Reading
-------
``read_pbn(text)`` / ``read_pbn_file(path)`` return one :class:`Board` per
game.  The reader follows the PBN 2.1 standard (chapters 3 and 4.8):

* A game ends at a *semi-empty* line (only spaces/tabs), except inside a
  ``{ ... }`` comment, which may span lines and hold empty lines.
* ``%`` in column 1 starts an escape line (``% PBN 2.1``, ``% EXPORT``...):
  the whole line is ignored.  ``;`` starts a comment to the end of the line.
* A tag pair is ``[`` name string ``]``; any white space, line breaks
  included, may separate the four tokens.  Several tags may share a line.
  In strings ``\\"`` is a quote and ``\\\\`` a backslash; any other backslash
  is kept as written (``"Declarer;Denomination\\2R;Result\\2R"``).
* Tag names are read in any case; the tags the standard and SPEC name are
  kept in their own spelling (``[play "W"]`` is the ``Play`` tag, and its
  cards the ``Play`` section).
* A tag that already occurred in the game is ignored (first one wins), except
  ``Note`` tags, which may repeat (collected in ``Board.notes``); a tag the
  analysis reads (``DECIDING_TAGS``) given again with another value makes
  the board bad input, as it is ambiguous.  One leniency: a repeated
  ``Event``, ``Board`` or ``Deal`` tag in a game that already has a
  ``Deal`` starts a new game, for files that forgot the empty line between
  games.
* Line ends: LF, CRLF, CR, and CR CR LF (CRLF text written again in a
  Windows text mode) are each one line end; a byte order mark anywhere (two
  files put together) is nothing.
* Everything after a tag up to the next tag (Auction calls, Play cards, table
  rows...) is that tag's *section*: ``Board.sections[name]`` holds its lines
  as written (columns kept for tables) but with comments blanked out and
  without indentation.  ``Note`` tags do not interrupt the section they sit
  in.
* Tag value inheritance (PBN 2.1 §4.8): the value ``"#"`` is the value of the
  same tag in the nearest previous game that has the tag (``""`` if none).  A
  value ``"##text"`` is ``text`` for this game and for every later game that
  does not give the tag; a later plain value of that tag replaces the
  default from there on (the standard's example: a ``##`` date redefined in
  mid-file for the next day's boards).  ``"##"`` alone therefore means an
  empty default; nothing is ever incremented (the standard defines no
  numbering).  The standard forbids ``#`` for Dealer, Vulnerable, Deal,
  Declarer, Contract, Auction and Play; we accept it for every tag.
  A game with no Deal that sets ``##`` defaults is a file header, not a
  board: it is not returned.

A malformed game never stops the reader: its problems are listed in
``Board.errors`` (plain messages, without the board label) and the next game
is read.  ``Board.check()`` (called by ``start_position``/``position``)
raises them as one :class:`WhistError` naming the board.

Writing
-------
``write_board`` / ``write_pbn`` write export-style PBN: the mandatory tags in
the standard's order, the other identification tags alphabetically, then
Auction and Play with their sections, then the other sections (tables)
alphabetically.
"""
from __future__ import annotations

import os
import re
import stat
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Mapping, Optional, Sequence

from .board import Board, format_deal
from .errors import WhistError
from .vocab import SEATS, Contract, opening_leader, parse_contract, parse_ranking, parse_strain

__all__ = [
    "WhistError",
    "Contract",
    "Board",
    "MANDATORY_TAGS",
    "parse_contract",
    "parse_strain",
    "parse_ranking",
    "read_pbn",
    "read_pbn_file",
    "decode_pbn",
    "PbnBoards",
    "format_deal",
    "format_tag",
    "write_board",
    "write_pbn",
    "optimum_result_table",
    "table_board_pbn",
]

# The Mandatory Tag Set of PBN 2.1 §3.4, in export order.
MANDATORY_TAGS = (
    "Event", "Site", "Date", "Board", "West", "North", "East", "South",
    "Dealer", "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result",
)

# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------

_SPACE = " \t\f\v\x1a"
_WORD_STOP = set(_SPACE + ';{}[]"')
_TAG_NAME_RE = re.compile(r"[A-Za-z0-9_]+")

# The tags of the PBN standard and of SPEC, in their spelling: a name
# written in another case is read as this one.
KNOWN_TAGS = (
    "Event", "Site", "Date", "Round", "Board", "West", "North", "East", "South", "Dealer",
    "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result", "Auction", "Play",
    "Note", "Annotator", "AnnotatorNA", "Application", "BidSystemEW", "BidSystemNS",
    "Competition", "DealId", "Description", "EventDate", "EventSponsor", "FrenchMP",
    "Generator", "Hidden", "HomeTeam", "Mode", "Room", "Score", "ScoreIMP", "ScoreMP",
    "ScorePercentage", "ScoreRubber", "ScoreRubberHistory", "Section", "Stage", "Table",
    "Termination", "Time", "TimeCall", "TimeCard", "TimeControl", "UTCDate", "UTCTime",
    "VisitTeam", "ActionTable", "AuctionTimeTable", "InstantScoreTable",
    "OptimumPlayTable", "OptimumResultTable", "OptimumScore", "PlayTimeTable",
    "ScoreTable", "TotalScoreTable", "Title",
    # SPEC's whist tags
    "Trump", "Ranking", "Leader", "Kitty", "Undealt", "Bidder", "Goal", "Variant",
    "Unseen", "TrumpCard", "Constraint", "Vul",
    # other programs' double-dummy tags (DOUBLE_DUMMY_TAGS), in any case
    "DoubleDummyTricks", "ParContract", "OptimumContract", "Ability", "Minimax",
)
_CANONICAL = {name.lower(): name for name in KNOWN_TAGS}
# The tags whose value changes what is solved: given twice with two values
# in one game, the board is bad input (which one was meant?).
# (Values are compared in any case and spacing; "#" and "##" values, which
# name another game's, are not compared.)
DECIDING_TAGS = frozenset((
    "Deal", "Dealer", "Declarer", "Contract", "Result", "Play", "Trump", "Ranking",
    "Leader", "Kitty", "Undealt", "Bidder", "Goal", "Variant", "Unseen", "TrumpCard"))
# Control bytes that do not belong in a text file (tab, LF, VT, FF, CR and
# the DOS end-of-file mark ^Z are allowed).
_CONTROL_BYTES = bytes(b for b in range(32) if b not in (9, 10, 11, 12, 13, 26)) + b"\x7f"

# The most a file (or standard input) may hold, in MB; WHIST_SOLVE_MAX_INPUT_MB
# sets another.  A file is read whole before its boards are: 100,000
# deals of `deal --count` (19.4 MB) took 36 s and 0.76 GB of memory to
# read before its cards' names were shared and its strings taken whole,
# 23 s and 0.44 GB after; so 64 MB is some 330,000 boards and about 1.5
# GB.  Boards of one card a hand are the worst case, some 1.5 KB of memory
# for 32 bytes of file: 8 MB of them (262,144 boards) took 13.4 s and 0.50
# GB to read while each board kept a copy of its hands and of its game's
# lists, 10.5 s and 0.40 GB since, so 64 MB would hold about 3 GB.  An
# endless input (`/dev/zero`, `yes | whist-solve -`) ends here instead of
# taking all the memory there is.
MAX_INPUT_MB = 64
# The most WHIST_SOLVE_MAX_INPUT_MB may say (``inf`` is not a size).
MAX_INPUT_MB_SET = 1 << 30
# The most items (tags' brackets, names and values, words, comments) a line
# may hold, and the most between two empty lines (a game, or several that
# lack their empty lines); the rest of the line, or of the text up to the
# next empty line, is skipped and its game is bad input.  The items
# between two empty lines are all in memory at once, some 400 bytes
# each: a `[Play]` section of 3 million cards on one line (9 MB) took
# 12 s and 1.2 GB to read.  Real lines hold at most a few hundred items
# (a score table's row), and a game some thousands; 1,000,000 items are
# about 25,000 boards written without empty lines between them, 400 MB.
MAX_LINE_ITEMS = 10_000
MAX_GAME_ITEMS = 1_000_000
# Read this much at a time: binary data (a NUL byte) ends the reading.
_READ_CHUNK = 1 << 20


@dataclass
class _Tok:
    kind: str   # '[', ']', 'str', 'word', 'comment', 'err'
    text: str   # the value (unescaped string) or the error message
    raw: str    # as written
    line: int
    col: int = 0


@dataclass
class _Game:
    tags: dict = field(default_factory=dict)      # raw values, file order
    sections: dict = field(default_factory=dict)  # name -> [(line, raw token)]
    notes: list = field(default_factory=list)
    note_places: list = field(default_factory=list)   # per note, the tag whose section it follows (or None)
    errors: list = field(default_factory=list)
    comments: list = field(default_factory=list)
    comment_places: list = field(default_factory=list)   # per comment, the tag it follows (or None)
    comment_semis: list = field(default_factory=list)    # per comment, a ';' one (to the line's end)
    more_constraints: list = field(default_factory=list)   # Constraint tags after the first
    first_line: int = 0        # the line of its first token


def _semi_empty(line: str) -> bool:
    return not line.strip(_SPACE)


def _scan(text: str, lines: Optional[list] = None) -> Iterator[list[_Tok]]:
    """Split the text into games and each game into tokens, dropping
    comments and escape lines; the games one at a time (a big file's tokens
    are never all in memory at once).  ``lines``: the text's lines, when
    the caller has them."""
    if lines is None:
        lines = text.split("\n")
    toks: list[_Tok] = []
    ln = 0
    in_brace = False
    brace_line = 0
    brace_text: list[str] = []
    while True:
        if ln >= len(lines):
            if not in_brace:
                break
            # A '{' comment never closed: rather than lose the rest of the
            # file, end it (and its game) at the first empty line after it.
            toks.append(_Tok("err", f"line {brace_line}: unterminated {{ comment", "{", brace_line))
            in_brace = False
            ln = brace_line
            while ln < len(lines) and not _semi_empty(lines[ln]):
                ln += 1
            continue
        line = lines[ln]
        ln += 1
        i, n = 0, len(line)
        if in_brace:
            j = line.find("}")
            if j < 0:
                brace_text.append(line)
                continue
            brace_text.append(line[:j])
            toks.append(_Tok("comment", "\n".join(brace_text).strip(), "", brace_line))
            in_brace = False
            i = j + 1
        elif line.startswith("%"):
            continue
        elif _semi_empty(line):
            if toks:
                yield _Block(toks, ln - 1)
                toks = []
            continue
        first = len(toks)
        while i < n:
            if len(toks) - first >= MAX_LINE_ITEMS:
                toks.append(_Tok("err", f"line {ln}: more than {MAX_LINE_ITEMS:,} items on one line"
                                 " (the rest of the line is skipped)", "", ln))
                break
            ch = line[i]
            if ch in _SPACE:
                i += 1
            elif ch == ";":
                # commentary to the end of the line: kept, as {...} comments are
                if line[i + 1:].strip():
                    toks.append(_Tok("semi", line[i + 1:].strip(), "", ln, i))
                break
            elif ch == "{":
                j = line.find("}", i + 1)
                if j < 0:
                    in_brace, brace_line = True, ln
                    brace_text = [line[i + 1:]]
                    break
                toks.append(_Tok("comment", line[i + 1:j].strip(), "", ln, i))
                i = j + 1
            elif ch in "[]":
                toks.append(_Tok(ch, ch, ch, ln, i))
                i += 1
            elif ch == '"':
                j = line.find('"', i + 1)
                if j >= 0 and "\\" not in line[i + 1:j]:
                    # no escape before the closing quote: the text as it is
                    toks.append(_Tok("str", line[i + 1:j], line[i:j + 1], ln, i))
                    i = j + 1
                    continue
                j, buf = i + 1, []
                while j < n and line[j] != '"':
                    if line[j] == "\\" and j + 1 < n and line[j + 1] in '"\\':
                        j += 1
                    buf.append(line[j])
                    j += 1
                if j >= n:
                    toks.append(_Tok("err", f"line {ln}: unterminated string {line[i:].strip()!r}",
                                     line[i:], ln))
                    break
                toks.append(_Tok("str", "".join(buf), line[i:j + 1], ln, i))
                i = j + 1
            else:
                j = i + 1 if ch == "}" else i
                while j < n and line[j] not in _WORD_STOP:
                    j += 1
                toks.append(_Tok("word", line[i:j], line[i:j], ln, i))
                i = j
        if len(toks) > MAX_GAME_ITEMS:
            # the rest, up to the next empty line, is not read
            toks.append(_Tok("err", f"line {ln}: more than {MAX_GAME_ITEMS:,} items without an"
                             " empty line (PBN puts one between games; the rest up to the next"
                             " empty line is skipped)", "", ln))
            in_brace = False
            while ln < len(lines) and not _semi_empty(lines[ln]):
                ln += 1
    if toks:
        yield _Block(toks, len(lines))


class _Block(list):
    """A scanned game's tokens (a list), with ``end``: the index of the
    empty line that ends it in the text's lines (their count at the end)."""

    def __init__(self, toks, end: int):
        super().__init__(toks)
        self.end = end


def _parse_game(toks: list[_Tok]) -> list[_Game]:
    """Tag pairs and section data of one scanned game (or more, when a game
    lacks its empty line; see the module docstring)."""
    game = _Game(first_line=toks[0].line if toks else 0)
    games = [game]
    current: Optional[str] = None  # the tag whose section collects data
    ignoring = False               # data after an ignored duplicate tag
    outside_reported = False
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok.kind == "err":
            game.errors.append(tok.text)
            i += 1
        elif tok.kind in ("comment", "semi"):
            if tok.text:
                game.comments.append(tok.text)
                game.comment_places.append(current)
                game.comment_semis.append(tok.kind == "semi")
            i += 1
        elif tok.kind == "[":
            parts = toks[i + 1:i + 4]
            kinds = [t.kind for t in parts]
            if (kinds == ["word", "str", "]"] and _TAG_NAME_RE.fullmatch(parts[0].text)):
                name, value = parts[0].text, parts[1].text
                name = _CANONICAL.get(name.lower(), name)
                i += 4
                if (name in ("Event", "Board", "Deal") and name in game.tags
                        and "Deal" in game.tags):
                    game = _Game(first_line=tok.line)
                    games.append(game)
                    current, ignoring, outside_reported = None, False, False
                if name == "Note":
                    game.notes.append(value)
                    game.note_places.append(current)
                elif name in game.tags:
                    if name == "Constraint":
                        game.more_constraints.append(value)
                    elif name in DECIDING_TAGS and _differ(game.tags[name], value):
                        game.errors.append(
                            f"line {tok.line}: the {name} tag given twice, "
                            f"{_shown(game.tags[name])} then {_shown(value)}: which is meant?")
                    ignoring, current = True, None
                else:
                    game.tags[name] = value
                    ignoring, current = False, name
            else:
                if "err" not in kinds:  # an unterminated string says it already
                    got = " ".join(t.raw for t in toks[i:i + 4] if t.kind != "err")
                    game.errors.append(
                        f"line {tok.line}: bad tag {got!r} (expected [Name \"value\"])")
                # Skip to the end of the broken tag.
                i += 1
                while i < len(toks) and toks[i].kind not in ("[", "]"):
                    if toks[i].kind == "err":
                        game.errors.append(toks[i].text)
                    i += 1
                if i < len(toks) and toks[i].kind == "]":
                    i += 1
                current, ignoring = None, True
        elif tok.kind == "]":
            game.errors.append(f"line {tok.line}: unexpected ']'")
            i += 1
        else:
            if current is not None:
                game.sections.setdefault(current, []).append((tok.line, tok.col, tok.raw))
            elif not ignoring and not outside_reported:
                game.errors.append(f"line {tok.line}: text outside a tag: {tok.raw!r}")
                outside_reported = True
            i += 1
    return games


def _differ(first: str, again: str) -> bool:
    """Do two values of one tag say different things (in any case and
    spacing; an inherited "#" or "##" value is not compared)?"""
    if first.lstrip().startswith("#") or again.lstrip().startswith("#"):
        return False
    return " ".join(first.split()).lower() != " ".join(again.split()).lower()


def _shown(value: str) -> str:
    """A tag's value in a message: quoted, a long one cut."""
    v = value.strip()
    return repr(v if len(v) <= 40 else v[:37] + "...")


def _section_lines(items: list[tuple[int, int, str]]) -> list[str]:
    """Section tokens back into their source lines, keeping the columns
    (table alignment) but not the indentation; comments become spaces."""
    lines: list[list[str]] = []
    last = start = None
    width = 0      # characters of the current line so far
    for line, col, raw in items:
        if line == last:
            pad = " " * max(1, col - start - width)
            # (pieces joined once at the end: adding to a string token
            # by token took time in the square of the line's length, 10 s
            # for a line of 400,000 tokens)
            lines[-1] += (pad, raw)
            width += len(pad) + len(raw)
        else:
            lines.append([raw])
            last, start, width = line, col, len(raw)
    return ["".join(pieces) for pieces in lines]


_CRS_LF_RE = re.compile(r"\r+\n")


def _game_text(lines: list, games: list, gi: int, end: int) -> Optional[str]:
    """The lines game ``gi`` of a scanned block came from: its first
    token's line up to the next game's (games without an empty line between
    them) or to the empty line that ends the block (index ``end``); None
    when the next game starts on a line this one has tokens on.  A comment
    never closed is closed at its end (else, in a file written again, it
    would run on into the next games)."""
    first = games[gi].first_line
    stop = end
    if gi + 1 < len(games):
        stop = games[gi + 1].first_line - 1
        if stop < first or lines[stop].split("[", 1)[0].strip():
            return None
    if first < 1:
        return None
    text = "\n".join(ln.rstrip("\r") for ln in lines[first - 1:stop]).rstrip("\n")
    if any("unterminated { comment" in e for e in games[gi].errors):
        text += "\n}"
    return text


def read_pbn(text: str, filename: str = "<string>") -> list[Board]:
    """All boards of a PBN text.  Bad boards come back with ``errors``;
    only a text that is not PBN at all (binary data, no tag anywhere) raises
    :class:`WhistError`."""
    if "\x00" in text:
        raise WhistError(f"{filename}: not a PBN text file (binary data)")
    text = text.replace("\ufeff", "")
    if "\r" in text:
        text = _CRS_LF_RE.sub("\n", text).replace("\r", "\n")
    last: dict[str, str] = {}      # tag -> value in the nearest previous game
    defaults: dict[str, str] = {}  # tag -> value set by "##" for later games
    boards: list[Board] = []
    headers: list[str] = []        # header games not yet followed by a board
    any_tag = False
    lines = text.split("\n")
    for toks in _scan(text, lines):
        games = _parse_game(toks)
        for gi, game in enumerate(games):
            # (before the Board adds its own errors to the list)
            unread = bool(game.errors)
            any_tag = any_tag or bool(game.tags or game.notes)
            if not game.tags and not game.errors:
                continue  # comments only
            tags: dict[str, str] = {}
            header = False
            for name, raw in game.tags.items():
                if raw == "#":
                    value = last.get(name, "")
                elif raw.startswith("##"):
                    value = raw[2:]
                    defaults[name] = value
                    header = True
                else:
                    value = raw
                    if name in defaults:  # a ## value redefined mid-file
                        defaults[name] = value
                tags[name] = value
            for name, value in defaults.items():
                tags.setdefault(name, value)
            last.update(tags)
            if header and "Deal" not in tags and not game.errors:
                # a file header game: ## defaults only, no deal; its text is
                # kept for a file written again (its plain tags, a
                # Generator, and its comments are in no board)
                raw = _game_text(lines, games, gi, toks.end)
                if raw is None:
                    raw = "\n".join(format_tag(n, v) for n, v in game.tags.items()
                                     if _TAG_NAME_RE.fullmatch(n))
                headers.append(raw)
                continue
            sections = {name: _section_lines(items) for name, items in game.sections.items()}
            # (the game's own lists: a game is read once)
            boards.append(Board(filename, len(boards) + 1, tags, sections,
                                game.errors, game.notes, game.comments, game.more_constraints,
                                game.note_places, game.comment_places,
                                # (most have no ';' comment: no list each)
                                game.comment_semis if any(game.comment_semis) else ()))
            if headers:
                boards[-1].headers = tuple(headers)
                headers = []
            if unread:
                # a game that could not be read whole: its text as written,
                # for a file written again (what the reader could not take
                # in, an unquoted value or a comment never closed, is kept)
                raw = _game_text(lines, games, gi, toks.end)
                if raw is not None:
                    # (with the values a "##" header gave it: a file written
                    # again has no header)
                    given = [format_tag(n, v) for n, v in tags.items()
                             if n not in game.tags and _TAG_NAME_RE.fullmatch(n)]
                    boards[-1].raw = "\n".join(given + [raw])
    if boards and not any_tag:
        raise WhistError(f"{filename}: not a PBN file (no tag found; {boards[0].errors[0]})")
    seen = Counter(b.label for b in boards)
    escapes = _header_escapes(text)
    for b in boards:
        if seen[b.label] > 1:
            b.label_shared = True
        if escapes:
            b.escapes = escapes
    return boards


def chosen_boards(boards: Sequence[Board], chosen: Iterable[bool]) -> list[Board]:
    """The boards of a file that are chosen (``--board``), the header games
    before a board left out passed on to the next board chosen: a file
    written again keeps its header (its Generator, its notes) whichever
    boards it holds."""
    out: list[Board] = []
    carried: tuple = ()
    for b, keep in zip(boards, chosen):
        if not keep:
            carried += b.headers
            continue
        if carried:
            b.headers = carried + b.headers
            carried = ()
        out.append(b)
    return out


_HEAD_RE = re.compile(r"(?:[ \t]*\n|%[^\n]*\n)*")


def _header_escapes(text: str) -> list[str]:
    """The escape lines (``%`` in column 1) that open the file, before its
    first game: a program's settings (BridgeComposer's ``%BCOptions``, a
    ``%Content-type`` with the charset), kept when the file is written
    again; the version lines (``% PBN 2.1``, ``% EXPORT``) are not, a
    writer says its own."""
    head = _HEAD_RE.match(text).group(0)
    return [ln.rstrip() for ln in head.split("\n")
            if ln.startswith("%") and not _VERSION_LINE_RE.match(ln)]


_VERSION_LINE_RE = re.compile(r"%\s*(PBN\b|EXPORT\s*$|IMPORT\s*$)", re.I)


class PbnBoards(list):
    """The boards of a file (a list), with ``problems``: what is wrong with
    the file itself though its boards could be read (a corrupt tail); and
    ``notes``: what was left out of it that is not wrong (NUL padding)."""

    def __init__(self, boards=(), problems=(), notes=()):
        super().__init__(boards)
        self.problems = list(problems)
        self.notes = list(notes)


_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"),
)


def _bom_text(data: bytes, filename: str) -> Optional[str]:
    """The text of a UTF-16 or UTF-32 file that starts with its byte order
    mark, else None."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(codec)
            except UnicodeDecodeError as e:
                line = data[:e.start].decode(codec, "replace").count("\n") + 1
                raise WhistError(f"{filename}: line {line}: bad {codec.upper()} text "
                                 "(the file starts with a byte order mark)") from None
    return None


# The opening of a tag pair, `[Name "`, in bytes (see decode_pbn).
_TAG_OPEN_RE = re.compile(rb'\[[ \t]*' + _TAG_NAME_RE.pattern.encode() + rb'[ \t]+"')


_FEW_CONTROLS = 8


def _binary_start(data: bytes) -> Optional[int]:
    """Where binary data starts (the start of the first line holding a NUL
    byte, or of the first line with a control byte when they are not rare),
    or None for a text file."""
    nul = data.find(b"\x00")
    controls = len(data) - len(data.translate(None, _CONTROL_BYTES))
    # (a few stray control bytes are no binary data, even in a short file:
    # one in a 90-byte file was 1%; a short file is binary when a tenth of
    # it is control bytes)
    if nul < 0 and not (controls and controls * 100 >= len(data)
                        and (controls >= _FEW_CONTROLS or controls * 10 >= len(data))):
        return None
    first = nul if nul >= 0 else len(data)
    if controls:
        for i, b in enumerate(data[:first]):
            if b in _CONTROL_BYTES:
                first = i
                break
    return data.rfind(b"\n", 0, first) + 1


def _looks_utf16(data: bytes) -> bool:
    """Does ``data`` look like UTF-16 text without its byte order mark: NUL
    bytes in most odd places or most even places, but not both (all NUL
    is no text at all)?"""
    half = max(1, len(data) // 2)
    return (data[1::2].count(0) > 0.4 * half) != (data[0::2].count(0) > 0.4 * half)


def input_limit() -> int:
    """The most bytes a PBN input may hold (MAX_INPUT_MB, or the
    environment's WHIST_SOLVE_MAX_INPUT_MB)."""
    raw = os.environ.get("WHIST_SOLVE_MAX_INPUT_MB", "").strip()
    mb = float(MAX_INPUT_MB)
    if raw:
        try:
            mb = float(raw)
        except ValueError:
            raise WhistError(f"WHIST_SOLVE_MAX_INPUT_MB={raw!r}: not a number of MB") from None
        if not mb > 0:
            raise WhistError(f"WHIST_SOLVE_MAX_INPUT_MB={raw!r}: must be more than 0")
        if mb > MAX_INPUT_MB_SET:
            raise WhistError(f"WHIST_SOLVE_MAX_INPUT_MB={raw!r}: at most {MAX_INPUT_MB_SET} "
                             "(a million GB)")
    return max(1, int(mb * (1 << 20)))


# NUL bytes after the text that are read as padding, at most: a copy that
# preallocated its file, or a disk image, ends the text with NUL bytes to
# the end of a block (4 KB to 1 MB); a megabyte more of them is binary data.
_PADDING_MAX = 1 << 20


def _padding(f, data: bytes, nul: int) -> Optional[int]:
    """``data`` was read from ``f`` up to a piece holding a NUL byte, the
    first at ``nul``: the number of NUL bytes from it to the end of the
    input, when they are all there is after a text that holds a tag and
    ends at a line end (padding: the text is whole); else None (binary
    data, read as far as it was).  A text that ends inside a line was cut,
    padded or not."""
    if (data.count(0, nul) != len(data) - nul or not data[:nul].endswith(b"\n")
            or not _TAG_OPEN_RE.search(data, 0, nul)):
        return None
    seen = len(data) - nul
    while seen <= _PADDING_MAX:
        piece = f.read(_READ_CHUNK)
        if not piece:
            return seen
        if piece.count(0) != len(piece):
            return None
        seen += len(piece)
    return None


def read_limited(f, name: str, limit: Optional[int] = None) -> tuple:
    """(the bytes of the binary stream ``f``, whether the reading stopped
    at binary data before the end, the NUL bytes of padding left out):
    read in pieces, it stops at the first piece holding a NUL byte (unless
    the input starts with a UTF-16 or UTF-32 byte order mark), since
    nothing after it is read as PBN, unless they are padding (_padding);
    more than ``limit`` bytes (default :func:`input_limit`) raise
    :class:`WhistError`."""
    limit = input_limit() if limit is None else limit
    parts: list = []
    total = 0
    wide = None             # a UTF-16/32 byte order mark: NUL bytes are text
    while True:
        piece = f.read(_READ_CHUNK)
        if not piece:
            return b"".join(parts), False, 0
        parts.append(piece)
        total += len(piece)
        if wide is None and total >= 4:
            head = b"".join(parts)[:4]
            wide = any(head.startswith(bom) for bom, _codec in _BOMS)
        if wide is False and b"\x00" in piece:
            data = b"".join(parts)
            nul = data.find(b"\x00")
            padded = _padding(f, data, nul)
            return (data, True, 0) if padded is None else (data[:nul], False, padded)
        if total > limit:
            raise WhistError(f"{name}: more than {limit / (1 << 20):g} MB: not read (split it into "
                             "smaller files, or set WHIST_SOLVE_MAX_INPUT_MB)")


def decode_pbn(data: bytes, filename: str, problems: Optional[list] = None,
               size: Optional[int] = None) -> str:
    """The text of a PBN file: UTF-8 (with or without BOM), each line that
    is not valid UTF-8 read as Windows-1252 (the superset of ISO-8859-1,
    PBN's official character set, that Windows programs write: its curly
    quotes and dashes would be control characters in ISO-8859-1), or as
    ISO-8859-1 when it holds a byte Windows-1252 leaves undefined;
    UTF-16 and UTF-32 with their byte order mark.  Binary data raises
    :class:`WhistError` naming the file; when ``problems`` is a list and
    the binary data comes after some tags (a truncated or corrupt file),
    the text before it is returned and the problem, with its line number,
    added to ``problems``.  ``size``: the whole input's length when
    ``data`` is only its start (the reading stopped at binary data), -1
    if that is not known."""
    text = _bom_text(data, filename)
    if text is not None:
        return text
    start = _binary_start(data)
    if start is not None:
        # Text before the binary data counts only if it holds a tag: random
        # bytes often have a line end before their first control byte.
        if start == 0 or problems is None or not _TAG_OPEN_RE.search(data, 0, start):
            hint = "; UTF-16 without a byte order mark?" if _looks_utf16(data) else ""
            raise WhistError(f"{filename}: not a PBN text file (binary data){hint}")
        line = data.count(b"\n", 0, start) + 1
        size = len(data) if size is None else size
        problems.append(f"line {line}: binary data from here to the end of the file "
                        + (f"({size - start} bytes not read)" if size >= start else "(not read)"))
        data = data[:start]
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    out = []
    for line in data.splitlines(keepends=True):
        try:
            out.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            try:
                out.append(line.decode("cp1252"))
            except UnicodeDecodeError:
                out.append(line.decode("latin-1"))
    return "".join(out).lstrip("\ufeff")


def read_pbn_file(path: str) -> list[Board]:
    """Read a PBN file (``-`` reads standard input, named ``<stdin>``).
    Returns a :class:`PbnBoards` list; an empty file, a file that is not
    PBN or cannot be read raises :class:`WhistError`."""
    if isinstance(path, bool) or not isinstance(path, (str, bytes, os.PathLike)):
        # (an int would be opened as a file descriptor: 0 read standard input)
        raise TypeError(f"read_pbn_file: a file name or '-', not {type(path).__name__}")
    if path == "-":
        name = "<stdin>"
        stdin = getattr(sys.stdin, "buffer", None)
        if sys.stdin is None or stdin is None:
            raise WhistError("<stdin>: standard input is closed")
        try:
            data, cut, padded = read_limited(stdin, name)
        except OSError as e:
            raise WhistError(f"<stdin>: cannot read standard input ({e.strerror or e})") from None
        size = -1 if cut else None
    else:
        name = path
        try:
            with open(path, "rb") as f:
                data, cut, padded = read_limited(f, name)
                size = None
                if cut:
                    st = os.fstat(f.fileno())
                    size = st.st_size if stat.S_ISREG(st.st_mode) else -1
        except FileNotFoundError:
            raise WhistError(f"{path}: no such file") from None
        except IsADirectoryError:
            raise WhistError(f"{path}: is a directory, not a PBN file") from None
        except PermissionError:
            raise WhistError(f"{path}: permission denied") from None
        except OSError as e:
            raise WhistError(f"{path}: cannot read the file ({e.strerror or e})") from None
    problems: list[str] = []
    text = decode_pbn(data, name, problems, size)
    if not text.strip(_SPACE + "\r\n\ufeff"):
        raise WhistError(f"{name}: empty file (no PBN boards)")
    boards = read_pbn(text, name)
    if problems and boards and _ends_in_a_game(text):
        # the binary data starts inside the last game: what it cut off (a
        # Constraint, a Play section) would be missed in silence
        boards[-1].errors.append(f"cut short by the binary data at line {text.count(chr(10)) + 1} "
                                 "(the rest of the board is not read)")
    notes = []
    if padded:
        notes.append(f"line {text.count(chr(10)) + 1}: {padded} NUL bytes of padding to the end "
                     "of the file, left out")
    return PbnBoards(boards, problems, notes)


_LAST_GAME_RE = re.compile(r"(?:\A|\n[ \t\r]*\n)((?:(?!\n[ \t\r]*\n).)*)\Z", re.S)


def _ends_in_a_game(text: str) -> bool:
    """Whether a text that was cut ends inside a game: a tag after the last
    empty line (a game ends at an empty line)."""
    m = _LAST_GAME_RE.search(text)
    return bool(m and re.search(r"^[ \t]*\[", m.group(1), re.M))


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------

def _quote(value: str) -> str:
    """A PBN string token.  ``"`` and a backslash are escaped with a
    backslash, as PBN's strings (PGN's) are, except a backslash before a
    digit: the column formats of a table's header (``Denomination\\2R``)
    are written as the standard and every PBN program write them (a
    reader takes ``\\2`` as it is)."""
    out = []
    value = str(value)
    for i, ch in enumerate(value):
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            nxt = value[i + 1] if i + 1 < len(value) else ""
            out.append("\\" if nxt.isdigit() else "\\\\")
        elif ch in "\r\n\t":
            out.append(" ")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def format_tag(name: str, value: str) -> str:
    if not _TAG_NAME_RE.fullmatch(name):
        raise ValueError(f"bad PBN tag name {name!r}")
    return f"[{name} {_quote(value)}]"


def write_board(tags: Mapping[str, str], sections: Optional[Mapping[str, Sequence[str]]] = None,
                notes: Sequence[tuple] = (), comments: Sequence[tuple] = ()) -> str:
    """PBN text of one game (ending with a newline): the mandatory tags in
    the standard's order, the other tags without a section alphabetically,
    Auction and Play with their sections, then the other tags with a
    section (tables) alphabetically.  ``notes``: (the tag whose section a
    Note follows, its value), written after that section (the Auction's
    =1= and the Play's refer to them); those before every section (None)
    first, those of a tag not written last.  ``comments``: (the tag a
    comment follows, its text[, True for a ``;`` one, to the line's end,
    else ``{...}``]), placed the same way (a comment
    inside a section after it)."""
    sections = sections or {}
    for name in sections:
        if sections[name] and name not in tags:
            raise ValueError(f"section {name!r} has no tag")
    special = ("Auction", "Play")
    others = [n for n in tags if n not in MANDATORY_TAGS and n not in special]
    order = ([n for n in MANDATORY_TAGS if n in tags]
             + sorted(n for n in others if not sections.get(n))
             + [n for n in special if n in tags]
             + sorted(n for n in others if sections.get(n)))
    extras = [(place, format_tag("Note", value)) for place, value in notes]
    extras += [(c[0], "; " + " ".join(c[1].split()) if len(c) > 2 and c[2]
                else "{" + c[1].replace("}", ")") + "}") for c in comments]
    lines = []
    for name in order:
        lines.append(format_tag(name, tags[name]))
        lines.extend(str(line) for line in sections.get(name, ()))
        lines.extend(text for place, text in extras if place == name)
    # (what comes before every tag first; what follows a tag not written last)
    first = [text for place, text in extras if place is None]
    lines.extend(text for place, text in extras if place is not None and place not in order)
    return "\n".join(first + lines) + "\n"


def write_pbn(boards: Iterable) -> str:
    """A PBN file: a ``% PBN 2.1`` header, then the games
    separated by empty lines.  Each item is ``(tags, sections)``, a tags
    dict, or a :class:`Board`."""
    games = []
    for item in boards:
        if isinstance(item, Board):
            tags, sections = item.tags, item.sections
        elif isinstance(item, Mapping):
            tags, sections = item, {}
        else:
            tags, sections = item
        games.append(write_board(tags, sections))
    return "% PBN 2.1\n" + "\n".join(games)


def optimum_result_table(table: Mapping, total: int = 13,
                         bidder_leads: bool = False) -> tuple[str, list[str]]:
    """PBN ``OptimumResultTable`` of a double-dummy table.

    ``table`` is ``{strain: {ranking: {seat: ns_tricks}}}`` as the ``table``
    command computes it: strain 'S' 'H' 'D' 'C' 'NT', ranking 'up'/'down',
    seat ('N'..'W' or 0..3) the seat that leads to the first trick, and the
    tricks N-S take.  ``total`` is the number of tricks of the deal (13;
    12 in bid whist).

    The PBN table is bridge-style: one row per declarer (N, S, E, W) and
    strain (NT, S, H, D, C), the declarer being the seat to the right of the
    leader (with ``bidder_leads``, bid whist's rule, the leader itself), and
    the tricks of the declarer's side::

        [OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]
        N NT  7
        N  S  9

    When the table holds downtown values, a Ranking column (``up``/``down``,
    width 4, left aligned) comes before Result and each declarer/strain has
    a row per ranking::

        [OptimumResultTable "Declarer;Denomination\\2R;Ranking\\4L;Result\\2R"]
        N NT up    7
        N NT down  5

    Returns the tag value and the section lines."""
    rankings_used = {r for per_strain in table.values() for r in per_strain}
    with_ranking = any(r != "up" for r in rankings_used)
    if with_ranking:
        value = "Declarer;Denomination\\2R;Ranking\\4L;Result\\2R"
    else:
        value = "Declarer;Denomination\\2R;Result\\2R"
    norm = {("NT" if s in ("N", "NT") else s): v for s, v in table.items()}
    lines = []
    for declarer in (0, 2, 1, 3):
        leader = opening_leader(declarer, bidder_leads)
        for strain in ("NT", "S", "H", "D", "C"):
            per_ranking = norm.get(strain)
            if not per_ranking:
                continue
            for ranking in ("up", "down"):
                seats = per_ranking.get(ranking)
                if not seats:
                    continue
                ns = seats.get(SEATS[leader], seats.get(leader))
                if ns is None:
                    continue
                result = ns if declarer % 2 == 0 else total - ns
                if with_ranking:
                    lines.append(f"{SEATS[declarer]} {strain:>2} {ranking:<4} {result:>2}")
                else:
                    lines.append(f"{SEATS[declarer]} {strain:>2} {result:>2}")
    return value, lines


# Tags other programs write from a deal's double-dummy values (PBN 2.1's
# OptimumScore and OptimumPlayTable; BridgeComposer's DoubleDummyTricks and
# ParContract; Deep Finesse's Ability and Minimax; the OptimumContract some
# sites add): a table written again drops them, as they may not be the
# deal's any more (table_board_pbn), and writes its own OptimumScore from
# the par when there is one.
DOUBLE_DUMMY_TAGS = frozenset({"OptimumResultTable", "OptimumScore", "OptimumPlayTable",
                               "DoubleDummyTricks", "ParContract", "OptimumContract",
                               "Ability", "Minimax"})


def board_comments(board) -> list:
    """(the tag a comment follows, its text, a ';' one) for each comment of
    the board, as write_board takes them."""
    semis = list(getattr(board, "comment_semis", ()))
    semis += [False] * (len(board.comments) - len(semis))
    return list(zip(board.comment_places, board.comments, semis))


def board_pbn(board) -> str:
    """A board written again as it was read: its tags, sections, notes and
    comments (a board with nothing solved, kept in a file written again);
    a board the reader could not take in whole, as it was written."""
    if getattr(board, "raw", None) is not None:
        return board.raw + "\n"
    tags = dict(board.tags)
    sections = {k: v for k, v in (board.sections or {}).items() if k in tags and v}
    return write_board(tags, sections, list(zip(board.note_places, board.notes)),
                       board_comments(board))


_CHARSET_RE = re.compile(r"(charset\s*=\s*[\"']?)[\w.:-]+", re.I)


def pbn_escapes(board) -> str:
    """The escape lines that opened the board's file, as a written PBN
    file (UTF-8) keeps them: a charset they name is UTF-8."""
    return "".join(_CHARSET_RE.sub(r"\g<1>UTF-8", line) + "\n"
                   for line in getattr(board, "escapes", ()))


def table_board_pbn(board, table: Mapping, n_tricks: int, par_score: Optional[int] = None) -> str:
    """A board written again with its double-dummy ``table`` (as in
    :func:`optimum_result_table`) as its OptimumResultTable, and with
    ``par_score`` (N-S's, when the par is known) as its OptimumScore: its
    tags and sections but those of DOUBLE_DUMMY_TAGS, the Board tag added
    if missing, the Deal in canonical form.  In bid whist the bidder
    leads: each row's declarer is the leader."""
    tags = {k: v for k, v in board.tags.items() if k not in DOUBLE_DUMMY_TAGS}
    sections = {k: v for k, v in (board.sections or {}).items() if k in tags and v}
    if "Board" not in tags:
        tags["Board"] = board.label
    tags["Deal"] = board.deal_string()
    value, lines = optimum_result_table(table, total=n_tricks,
                                        bidder_leads=board.game() == "bid")
    if par_score is not None:
        tags["OptimumScore"] = f"NS {par_score}"
    tags["OptimumResultTable"] = value
    sections["OptimumResultTable"] = lines
    return write_board(tags, sections, list(zip(board.note_places, board.notes)),
                       board_comments(board))

