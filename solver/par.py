"""Par for bridge boards: the contract both sides reach when they bid
perfectly knowing all four hands, and its score.

The definition is the one of DDS's dealer-dependent par (DealerPar /
DealerParBin, which endplay's ``par()`` calls), computed here from a
double-dummy table:

* the side that can make the highest-ranking contract (level, then strain
  C < D < H < S < NT) has the primacy; when both sides can make the same
  top contract, the side of the first seat from the dealer round that makes
  it gets it;
* for each contract of that side worth at least its best-scoring one
  (highest first), the opponents' cheapest sacrifice is found: a contract
  in another strain at the lowest level that outranks it, or in the same
  strain one level up if a seat of the primacy side could bid it first,
  doubled and going down by the tricks it lacks.  A sacrifice is taken when
  it costs strictly less than the contract is worth;
* if the best contract that no sacrifice can profitably overbid scores more
  than the sacrifice, the par is that contract (every strain scoring it is
  listed, at the lowest level that keeps the sacrifice unprofitable, with
  its overtricks, not below the level of its game or slam bonus);
  otherwise the par is the opponents' doubled sacrifice(s).

Scores are duplicate scores from N-S's point of view (E-W's plus score is
negative).  Vulnerability is given as PBN writes it: ``None`` / ``Love`` /
``-``, ``NS``, ``EW``, ``All`` / ``Both``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Optional, Sequence, Union

from .errors import WhistError
from .vocab import SEATS, opening_leader, parse_seat

# Strains in bidding order, low to high (the par code's order).
BID_STRAINS = ("C", "D", "H", "S", "NT")
_BIG = 9999


class ParError(WhistError):
    pass


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------

def _trick_points(level: int, strain: str) -> int:
    if strain == "NT":
        return 40 + 30 * (level - 1)
    return (20 if strain in ("C", "D") else 30) * level


def game_level(strain: str) -> int:
    return 3 if strain == "NT" else 4 if strain in ("H", "S") else 5


def made_score(level: int, strain: str, vul: bool, tricks: Optional[int] = None,
               doubled: int = 0) -> int:
    """Duplicate score of a contract that makes, ``tricks`` taken by
    declarer (default: exactly the contract)."""
    if tricks is None:
        tricks = level + 6
    over = tricks - level - 6
    if over < 0:
        raise ValueError("the contract does not make")
    points = _trick_points(level, strain) * (1, 2, 4)[doubled]
    score = points
    score += (500 if vul else 300) if points >= 100 else 50
    if level == 6:
        score += 750 if vul else 500
    elif level == 7:
        score += 1500 if vul else 1000
    if doubled:
        score += 50 * doubled
        score += over * (200 if vul else 100) * doubled
    else:
        score += over * (30 if strain in ("H", "S", "NT") else 20)
    return score


def down_score(down: int, vul: bool, doubled: int = 1) -> int:
    """What declarer's side loses (a positive number) going ``down``."""
    if down <= 0:
        return 0
    if not doubled:
        return down * (100 if vul else 50)
    if vul:
        pts = 200 + 300 * (down - 1)
    else:
        pts = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return pts * (2 if doubled == 2 else 1)


def contract_score(level: int, strain: str, doubled: int, vul: bool, tricks: int) -> int:
    """Duplicate score for declarer's side: positive when it makes."""
    need = level + 6
    if tricks >= need:
        return made_score(level, strain, vul, tricks, doubled)
    return -down_score(need - tricks, vul, doubled)


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------

_VUL_WORDS = {"NONE": (False, False), "LOVE": (False, False), "-": (False, False),
              "": (False, False), "NS": (True, False), "EW": (False, True),
              "ALL": (True, True), "BOTH": (True, True)}


def parse_vulnerable(value: Union[str, None, tuple]) -> tuple[bool, bool]:
    """(N-S vulnerable, E-W vulnerable) from a PBN ``Vulnerable`` value."""
    if value is None:
        return (False, False)
    if isinstance(value, tuple):
        if len(value) != 2 or not all(isinstance(v, bool) for v in value):
            raise ParError(f"unknown vulnerability {value!r} (a pair of booleans: N-S, E-W)")
        return value
    if not isinstance(value, str):
        raise ParError(f"unknown vulnerability {value!r} (expected None, NS, EW or All)")
    key = value.strip().upper().replace("-", "").replace("/", "") or "-"
    if value.strip() == "-":
        key = "-"
    if key not in _VUL_WORDS:
        raise ParError(f"unknown vulnerability {value!r} (expected None, NS, EW or All)")
    return _VUL_WORDS[key]


def vulnerable_name(vul: tuple[bool, bool]) -> str:
    return {(False, False): "None", (True, False): "NS", (False, True): "EW",
            (True, True): "All"}[vul]


def declarer_tricks(table: Mapping) -> dict:
    """{strain: [tricks of declarer's side for declarer N, E, S, W]} from a
    table as ``dd_table`` gives it ({strain: {'up': {leader: N-S tricks}}}
    or {strain: {leader: N-S tricks}}), leaders as 'N'..'W' or 0..3."""
    out = {}
    for strain in BID_STRAINS:
        row = table.get(strain)
        if row is None and strain == "NT":
            row = table.get("N")
        if row is None:
            raise ParError(f"the table has no {strain} row")
        if "up" in row:
            row = row["up"]
        vals = []
        for declarer in range(4):
            leader = opening_leader(declarer)
            ns = row.get(SEATS[leader], row.get(leader))
            if ns is None:
                raise ParError(f"the table has no value for {strain} led by {SEATS[leader]}")
            if isinstance(ns, bool) or not isinstance(ns, int) or not 0 <= ns <= 13:
                raise ParError(f"the table's value for {strain} led by {SEATS[leader]} is "
                               f"{ns!r}: par is for full bridge deals (0 to 13 tricks)")
            vals.append(ns if declarer % 2 == 0 else 13 - ns)
        out[strain] = vals
    return out


# ---------------------------------------------------------------------------
# Result
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ParContract:
    level: int
    strain: str                 # 'C' 'D' 'H' 'S' 'NT'
    doubled: bool               # a sacrifice (doubled, going down)
    seats: tuple                # declarer seat indices (0..3), one or both of a side
    overtricks: int = 0
    undertricks: int = 0

    @property
    def side(self) -> str:
        return "NS" if self.seats[0] % 2 == 0 else "EW"

    def name(self) -> str:
        """``4S-NS``, ``3NT+1-N``, ``5DX-EW-2`` style (plain ASCII)."""
        text = f"{self.level}{self.strain}" + ("X" if self.doubled else "")
        text += "-" + "".join(SEATS[s] for s in self.seats)
        if self.overtricks:
            text += f"+{self.overtricks}"
        if self.undertricks:
            text += f"-{self.undertricks}"
        return text

    def as_json(self) -> dict:
        return {"level": self.level, "strain": self.strain, "doubled": self.doubled,
                "declarer": [SEATS[s] for s in self.seats], "overtricks": self.overtricks,
                "undertricks": self.undertricks, "contract": self.name()}


@dataclass(frozen=True)
class Par:
    score: int                          # from N-S's point of view
    contracts: tuple = field(default_factory=tuple)   # () when the board is passed out
    dealer: int = 0
    vulnerable: tuple = (False, False)

    @property
    def passed_out(self) -> bool:
        return not self.contracts

    def text(self) -> str:
        """``Par +620: 4S-NS`` / ``Par -300: 5CX-EW-2 5DX-E-2`` / ``Par 0: pass``."""
        score = f"{self.score:+d}" if self.score else "0"
        what = " ".join(c.name() for c in self.contracts) if self.contracts else "pass"
        return f"Par {score}: {what}"

    def __str__(self) -> str:
        return self.text()

    def as_json(self) -> dict:
        return {"score": self.score, "contracts": [c.as_json() for c in self.contracts],
                "dealer": SEATS[self.dealer], "vulnerable": vulnerable_name(self.vulnerable)}


# ---------------------------------------------------------------------------
# The par search
# ---------------------------------------------------------------------------

def _number(tricks: int, d: int) -> int:
    """Contract number (1 = 1C .. 35 = 7NT) of the contract ``tricks`` just
    make in strain index ``d``; below 1 when no contract makes."""
    return 5 * (tricks - 7) + d + 1


def _level_strain(no: int) -> tuple[int, str]:
    return (no - 1) // 5 + 1, BID_STRAINS[(no - 1) % 5]


def _score_of(no: int, vul: bool) -> int:
    level, strain = _level_strain(no)
    return made_score(level, strain, vul)


def _doubled_down(down: int, vul: bool) -> int:
    return down_score(down, vul, 1)


def _down_target(no: int, vul_decl: bool, vul_def: bool) -> int:
    """The most undertricks, doubled, that cost the defenders less than
    declarer's contract ``no`` would score."""
    worth = _score_of(no, vul_decl)
    d = 0
    while d < 13 and _doubled_down(d + 1, vul_def) < worth:
        d += 1
    return d


def _floor_number(no: int) -> int:
    """The lowest contract of the same strain that keeps the bonus class
    (part score -> 1-level, game -> the game level, slams stay)."""
    level, strain = _level_strain(no)
    d = BID_STRAINS.index(strain)
    if level >= 6:
        return no
    g = game_level(strain)
    return 5 * (g - 1) + d + 1 if level >= g else d + 1


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _seats_with_max(tr: Sequence[int], side: int) -> tuple:
    a, b = tr[side], tr[side + 2]
    top = max(a, b)
    return tuple(s for s in (side, side + 2) if tr[s] == top)


def par(table: Mapping, dealer: Union[int, str], vulnerable: Union[str, None, tuple] = None) -> Par:
    """Par of a bridge deal from its double-dummy table (as ``dd_table``
    returns it), the dealer (seat index or 'N'..'W') and the vulnerability
    (PBN ``Vulnerable`` value or a pair of booleans (N-S, E-W))."""
    if not isinstance(table, Mapping):
        raise TypeError(f"table: a double-dummy table as dd_table returns it, not "
                        f"{type(table).__name__}")
    try:
        dealer = parse_seat(dealer)
    except WhistError:
        raise ParError(f"unknown dealer {dealer!r} (N, E, S or W)") from None
    vul = parse_vulnerable(vulnerable)
    tricks = declarer_tricks(table)
    t = [tricks[s] for s in BID_STRAINS]          # t[d][seat]

    # Per side and strain: the contract the side's better declarer just makes.
    no = [[_number(max(t[d][side], t[d][side + 2]), d) for d in range(5)] for side in (0, 1)]
    best = [[max(t[d][side], t[d][side + 2]) for d in range(5)] for side in (0, 1)]
    score = [[_score_of(no[side][d], vul[side]) if best[side][d] >= 7 else 0
              for d in range(5)] for side in (0, 1)]
    highest = [max([no[s][d] for d in range(5) if best[s][d] >= 7], default=0) for s in (0, 1)]

    if highest[0] == highest[1] == 0:
        return Par(0, (), dealer, vul)
    if highest[0] != highest[1]:
        side = 0 if highest[0] > highest[1] else 1
    else:
        # Both sides make the same top contract: the first from the dealer round bids it.
        d = (highest[0] - 1) % 5
        side = next(p % 2 for p in range(dealer, dealer + 4) if t[d][p % 4] == best[0][d])
    other = 1 - side

    # The side's candidate contracts, highest first: those worth at least
    # its dearest contract's number (the lowest such when scores tie).
    dearest_score = max(score[side][d] for d in range(5) if best[side][d] >= 7)
    dearest_no = min(no[side][d] for d in range(5)
                     if best[side][d] >= 7 and score[side][d] == dearest_score)
    cands = sorted((d for d in range(5) if no[side][d] >= dearest_no),
                   key=lambda d: -no[side][d])

    def sacrifices(n_no: int, dno: int) -> list:
        """Undertricks of the opponents' cheapest sacrifice in each strain."""
        downs = []
        for eno in range(5):
            if eno == dno:
                need = (n_no + 34) // 5
                first_ours = 0
                down = _BIG
                for p in range(dealer, dealer + 4):
                    diff = need - t[dno][p % 4]
                    if p % 2 == side:
                        if diff == 0:
                            first_ours = 1
                    else:
                        down = min(down, diff + first_ours)
            else:
                down = _trunc_div(n_no - no[other][eno] + 4, 5)
            if no[other][eno] + 5 * down > 35:
                down = _BIG
            downs.append(down)
        return downs

    kinds, gaps, sac_down, sac_table = {}, {}, {}, {}
    best_plus, best_down, sac_found = 0, 0, False
    for dno in cands:
        n_no = no[side][dno]
        target = _down_target(n_no, vul[side], vul[other])
        downs = sacrifices(n_no, dno)
        sac_table[dno] = downs
        down = min(downs)
        if down <= target:
            best_down = max(best_down, down)
            if sac_found:
                kinds[dno] = -1        # overbid by a sacrifice, and not the first
            else:
                sac_found = True
                kinds[dno] = 0
                sac_down[dno] = down
        else:
            best_plus = max(best_plus, score[side][dno])
            kinds[dno] = 1
            gaps[dno] = target - down

    sac_cost = _doubled_down(best_down, vul[other])
    sign = 1 if side == 0 else -1
    out = []
    if not sac_found or best_plus > sac_cost:
        for dno in cands:
            if kinds[dno] != 1 or score[side][dno] != best_plus:
                continue
            n_no, plus = no[side][dno], 0
            if gaps[dno] < -1:
                # Bid lower with overtricks while the sacrifice stays
                # unprofitable, keeping the game or slam bonus.
                lowest = max(n_no + 5 * (gaps[dno] + 1), _floor_number(n_no))
                plus = (n_no - lowest) // 5
                n_no = lowest
            level, strain = _level_strain(n_no)
            out.append(ParContract(level, strain, False, _seats_with_max(t[dno], side),
                                   overtricks=plus))
        return Par(sign * best_plus, tuple(out), dealer, vul)

    for dno in cands:
        if kinds[dno] != 0 or sac_down[dno] != best_down:
            continue
        n_no = no[side][dno]
        for eno in range(5):
            if sac_table[dno][eno] != best_down:
                continue
            if eno != dno:
                level, strain = _level_strain(no[other][eno] + 5 * best_down)
                out.append(ParContract(level, strain, True, _seats_with_max(t[eno], other),
                                       undertricks=best_down))
                continue
            need = (n_no + 34) // 5
            first_ours = 0
            hits = []
            for p in range(dealer, dealer + 4):
                diff = need - t[dno][p % 4]
                if p % 2 == side:
                    if diff == 0:
                        first_ours = 1
                elif diff + first_ours == best_down:
                    hits.append((p % 4, n_no + 5 * first_ours))
            if len(hits) == 2 and hits[0][1] == hits[1][1]:
                level, strain = _level_strain(hits[0][1])
                seats = tuple(sorted(h[0] for h in hits))
            else:
                seat, sno = min(hits, key=lambda h: h[1])
                level, strain = _level_strain(sno)
                seats = (seat,)
            out.append(ParContract(level, strain, True, seats, undertricks=best_down))
    return Par(sign * sac_cost, tuple(out), dealer, vul)
