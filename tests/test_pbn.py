"""Tests of the PBN reader and writer (whist_solve.pbn)."""
from __future__ import annotations

import io
import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from whist_solve.cards import SEATS, Position, WhistError, full_deck, parse_hand
from whist_solve.pbn import (
    Board,
    Contract,
    format_deal,
    optimum_result_table,
    parse_contract,
    parse_ranking,
    parse_strain,
    read_pbn,
    read_pbn_file,
    write_board,
    write_pbn,
)

import whist_solve.pbn as pbn_module
from support import TEST_DATA

DATA = TEST_DATA

N, E, S, W = range(4)


def one(text: str) -> Board:
    boards = read_pbn(text)
    assert len(boards) == 1, [b.tags for b in boards]
    return boards[0]


FULL_DEAL = "N:JT64.AQT93.962.5 AK7.J65.AK74.J98 Q985.K8742..QT63 32..QJT853.AK742"


# ---------------------------------------------------------------------------
# Contracts, strains, rankings
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, level, strain, ranking, doubled", [
    ("4S", 4, "S", "up", 0),
    ("3H", 3, "H", "up", 0),
    ("4S\u2193", 4, "S", "down", 0),
    ("4 S down", 4, "S", "down", 0),
    ("5NT\u2191", 5, "NT", "up", 0),
    ("5 nt up", 5, "NT", "up", 0),
    ("1C downtown", 1, "C", "down", 0),
    ("2D uptown", 2, "D", "up", 0),
    ("4SX", 4, "S", "up", 1),
    ("7NTXX", 7, "NT", "up", 2),
    ("4sx", 4, "S", "up", 1),
    ("4SX\u2193", 4, "S", "down", 1),
    ("4S\u2193X", 4, "S", "down", 1),
    ("2\u2665", 2, "H", "up", 0),
    ("3 no trump", 3, "NT", "up", 0),
    ("4 spades down", 4, "S", "down", 0),
    ("6N", 6, "NT", "up", 0),
    ("S", 0, "S", "up", 0),       # PBN end positions: the strain only
    ("NT", 0, "NT", "up", 0),
    ("4 uptown in spades", 4, "S", "up", 0),     # bids as the tool names them
    ("5 Downtown in hearts", 5, "H", "down", 0),
    ("3 no-trump downtown", 3, "NT", "down", 0),
])
def test_parse_contract(text, level, strain, ranking, doubled):
    c = parse_contract(text)
    assert (c.level, c.strain, c.ranking, c.doubled, c.passed) == (level, strain, ranking, doubled, False)


@pytest.mark.parametrize("text", ["Pass", "pass", "AP"])
def test_parse_contract_pass(text):
    c = parse_contract(text)
    assert c.passed and c.level == 0 and c.trump is None
    assert c.name() == "Pass"


@pytest.mark.parametrize("text", ["", "8S", "0S", "4Z", "four spades", "4S sideways",
                                  "4SX\u2193X", "4S up down", "44S", "S4"])
def test_parse_contract_junk(text):
    with pytest.raises(WhistError, match="contract"):
        parse_contract(text)


def test_every_bid_name_reads_back():
    """What bid and check print ("5 downtown in spades") is taken back as
    --contract (it was refused as a bad contract)."""
    from whist_solve.vocab import bid_name
    for level in range(1, 8):
        for trump in ("S", "H", "D", "C", "NT"):
            for ranking in ("up", "down"):
                c = parse_contract(bid_name(level, trump, ranking))
                assert (c.level, c.strain, c.ranking, c.doubled) == (level, trump, ranking, 0)
    for junk in ("4 uptown in", "uptown in spades", "4 sideways in spades", "4 up in notrump X"):
        with pytest.raises(WhistError, match="contract"):
            parse_contract(junk)


def test_parse_contract_level_message():
    with pytest.raises(WhistError, match="level must be 1 to 7"):
        parse_contract("8NT")


@pytest.mark.parametrize("contract, name", [
    (Contract(4, "S", "down"), "4S\u2193"),
    (Contract(3, "NT", "up"), "3NT"),
    (Contract(4, "S", "up", 1), "4SX"),
    (Contract(7, "NT", "down", 2), "7NTXX\u2193"),
    (Contract(0, "H", "up"), "H"),
])
def test_contract_name_round_trip(contract, name):
    assert contract.name() == name
    assert str(contract) == name
    assert parse_contract(name) == contract


def test_contract_trump():
    assert parse_contract("4H").trump == "H"
    assert parse_contract("3NT").trump is None


@pytest.mark.parametrize("text, strain", [
    ("S", "S"), ("h", "H"), ("Diamonds", "D"), ("\u2663", "C"), ("NT", "NT"),
    ("N", "NT"), ("notrump", "NT"), ("no trump", "NT"),
])
def test_parse_strain(text, strain):
    assert parse_strain(text) == strain


def test_parse_strain_junk():
    with pytest.raises(WhistError, match="unknown trump 'Q'"):
        parse_strain("Q")


@pytest.mark.parametrize("text, ranking", [
    ("up", "up"), ("DOWN", "down"), ("uptown", "up"), ("Downtown", "down"),
    ("\u2191", "up"), ("\u2193", "down"),
])
def test_parse_ranking(text, ranking):
    assert parse_ranking(text) == ranking


def test_parse_ranking_junk():
    with pytest.raises(WhistError, match="unknown ranking"):
        parse_ranking("sideways")


# ---------------------------------------------------------------------------
# A BridgeComposer-style export
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def export():
    return read_pbn_file(str(DATA / "bridge_export.pbn"))


def test_export_boards(export):
    # The header game (## tags only, no Deal) is not a board.
    assert [b.label for b in export] == ["1", "2", "3", "4"]
    assert [b.index for b in export] == [1, 2, 3, 4]
    assert all(b.errors == [] for b in export)
    assert all(b.file.endswith("bridge_export.pbn") for b in export)


def test_export_double_hash_defaults(export):
    assert [b.tags["Event"] for b in export] == ["Thursday Club Pairs"] * 4
    # The ## date is redefined in board 3; board 4 has no Date tag and gets
    # the redefined value.
    assert [b.tags["Date"] for b in export] == ["2023.10.05", "2023.10.05",
                                                "2023.10.06", "2023.10.06"]


def test_export_hash_inheritance(export):
    assert export[1].tags["Site"] == "De Kring, Amsterdam NLD"
    # "#" in board 2 copies board 1; "#" in board 3 copies board 2's value.
    assert export[1].tags["Scoring"] == "IMP;Cross"
    assert export[2].tags["Scoring"] == "IMP;Cross"
    # Without a tag, nothing is inherited (only ## values are).
    assert "Scoring" not in export[3].tags
    assert "Vulnerable" not in export[3].tags


def test_export_tags_and_escapes(export):
    b1 = export[0]
    assert b1.tags["West"] == "Jansen, P."
    assert b1.tags["OptimumResultTable"] == "Declarer;Denomination\\2R;Result\\2R"
    assert export[3].tags["Description"] == 'a "quoted" word and a backslash \\ in a string'
    assert b1.notes == ["1:4+ spades", "2:fourth best"]
    assert "Note" not in b1.tags


def test_export_sections(export):
    b1 = export[0]
    assert b1.sections["Auction"] == ["1C Pass 1S =1= Pass", "2S Pass 4S X", "Pass Pass Pass"]
    table = b1.sections["OptimumResultTable"]
    assert len(table) == 20
    assert table[0] == "N NT  5"      # column alignment kept
    assert table[2] == "N  H 10"
    assert table[-1] == "W  C  7"
    play = b1.sections["Play"]
    assert len(play) == 13
    assert not any("comment" in line for line in play)
    assert play[4].split() == ["DJ", "S4", "DK", "S5"]
    # A brace comment spanning lines (with an empty line) inside board 2's
    # Play section neither ends the game nor shows up in the section.
    assert export[1].sections["Play"][1] == "D3 D2 DQ DT"
    assert len(export[1].sections["Play"]) == 7


def test_export_multiline_deal_tag(export):
    b2 = export[1]
    assert b2.hands[N] == parse_hand("AQ.63.AJT4.KJ865")
    assert b2.hands[E] == parse_hand("T42.9842.9863.32")
    assert b2.hands[S] == parse_hand("J85.AJ7.K752.T74")  # given in lower case
    assert b2.deal_string() == "N:AQ.63.AJT4.KJ865 T42.9842.9863.32 J85.AJ7.K752.T74 K9763.KQT5.Q.AQ9"


def test_export_full_play(export):
    b1 = export[0]
    assert b1.trump() == "S" and b1.ranking() == "up"
    assert b1.leader() == W
    order = ["D3", "D6", "D7", "S8", "H4", "S3", "HT", "H6", "D8", "D2", "D4", "C6",
             "DT", "D9", "DA", "CQ", "DK", "S5", "DJ", "S4", "SQ", "S2", "SJ", "S7",
             "CT", "C7", "C5", "CJ", "SA", "S9", "C2", "ST", "SK", "H2", "CK", "S6",
             "C8", "C3", "C4", "HQ", "C9", "HK", "CA", "H3", "DQ", "H9", "H5", "H7",
             "D5", "HA", "HJ", "H8"]
    assert b1.play_cards("S", "up") == order
    pos = b1.position()
    assert pos.is_over()
    assert (pos.ns_tricks, pos.ew_tricks) == (3, 10)
    start = b1.start_position()
    assert [len(h) for h in start.hands] == [13] * 4 and start.leader == W


def test_export_partial_last_trick(export):
    b2 = export[1]
    assert b2.trump() is None                      # 3NT
    assert b2.leader() == E                         # the Play tag
    pos = b2.position()
    assert pos.leader == N and pos.trick == ("DA", "D6")
    assert pos.turn == S
    assert (pos.ns_tricks, pos.ew_tricks) == (1, 4)
    assert [len(h) for h in pos.hands] == [7, 7, 8, 8]
    assert b2.play_cards(None, "up")[-2:] == ["DA", "D6"]


def test_export_passed_out(export):
    b3 = export[2]
    assert b3.contract().passed
    assert b3.declarer() is None                   # [Declarer ""]
    with pytest.raises(WhistError, match=r"^board 3: missing trump"):
        b3.trump()
    assert b3.leader() == N                        # Dealer W's left
    assert b3.position(trump="S").trump == "S"
    assert b3.hands[W] == parse_hand("9532.853.T6.7652")  # Deal starting with W


def test_export_end_position(export):
    b4 = export[3]
    assert b4.contract() == Contract(0, "H", "up")
    assert b4.trump() == "H"
    pos = b4.position()
    assert pos.leader == W and pos.trick == ("H3",) and pos.turn == N
    assert (pos.ns_tricks, pos.ew_tricks) == (1, 1)
    # At no-trump, South's DK wins trick 2, so South should lead trick 3:
    # West's H3 cannot be placed.
    with pytest.raises(WhistError, match="trick 3"):
        b4.position(trump="NT")


# ---------------------------------------------------------------------------
# Whist files
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def whist():
    return read_pbn_file(str(DATA / "whist.pbn"))


def test_whist_classic(whist):
    b = whist[0]
    assert b.errors == []
    assert b.game() == "classic"
    assert b.trump() == "H" and b.ranking() == "up"
    assert b.leader() == E                         # Leader tag beats Dealer S's left (W)
    assert b.kitty == [] and b.bidder() is None and b.goal() is None
    assert b.tags["Event"] == "Whist club"


def test_whist_bid_with_kitty(whist):
    b = whist[1]
    assert b.errors == []
    assert b.game() == "bid"                    # inferred: jokers and a kitty
    assert sorted(b.kitty) == sorted(["S4", "HK", "HT", "DT", "D4", "CK"])
    assert "JH" in b.hands[E] and "JL" in b.hands[E]
    assert [len(h) for h in b.hands] == [12] * 4
    assert b.contract() == Contract(4, "S", "down")
    assert b.trump() == "S" and b.ranking() == "down"
    assert b.bidder() == S
    assert b.leader() == S                         # bid whist: the bidder leads
    assert b.start_position().leader == S


def test_whist_puzzle(whist):
    b = whist[2]
    assert b.goal() == ("NS", 3)
    assert b.trump() is None and b.ranking() == "down" and b.leader() == W
    pos = b.start_position()
    assert pos.hands[N] == frozenset({"SA", "HK", "JH"})
    assert pos.hands[W] == frozenset({"S3", "H3", "JL"})


def test_whist_downtown_play(whist):
    b = whist[3]
    assert b.trump() == "H" and b.ranking() == "down"
    order = ["D3", "D8", "D5", "DJ", "ST", "S3", "S9", "S5", "C5", "CJ"]
    assert b.play_cards("H", "down") == order
    pos = b.position()
    assert pos.leader == W and pos.trick == ("C5", "CJ") and pos.turn == E
    assert (pos.ns_tricks, pos.ew_tricks) == (1, 1)
    assert [len(h) for h in pos.hands] == [9, 10, 10, 9]
    # Uptown, East's DJ would win trick 1 and South's ST trick 2, so the
    # last line's columns no longer fit: South has no card but West has.
    with pytest.raises(WhistError, match=r"^board 4: trick 3 of the Play section: S has no card"):
        b.play_cards("H", "up")
    with pytest.raises(WhistError, match="board 4"):
        b.position(ranking="up")


def test_whist_undealt_alias_and_goal(whist):
    b = whist[4]
    assert b.errors == []
    assert sorted(b.kitty) == sorted(["S3", "S7", "C9", "D6", "D7", "DA"])
    assert b.game() == "bid"
    assert b.ranking() == "up"                     # [Ranking "↑"]
    assert b.goal() == ("EW", 7)
    assert b.leader() == E                         # the bidder
    assert b.hands[N] == parse_hand("2.AQT4.KJ93.KT.H")  # Deal starting with E


# ---------------------------------------------------------------------------
# Bad boards
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def bad():
    return read_pbn_file(str(DATA / "bad.pbn"))


def test_bad_file_keeps_reading(bad):
    assert [b.label for b in bad] == [str(i) for i in range(1, 12)]
    assert bad[0].errors == [] and bad[0].position().leader == N
    assert bad[10].errors == [] and bad[10].trump() == "C" and bad[10].leader() == W


@pytest.mark.parametrize("index, message", [
    (2, "duplicate card SA (held by N and E)"),
    (3, "unequal hands (N 4, E 2, S 3, W 3)"),
    (4, "unknown rank 'X' in hand 'AKX...'"),
    (5, "bad tag"),
    (6, "unterminated string"),
    (7, "no Deal tag"),
    (8, "the hands of E and W are not known ('-' in the Deal): use simulate"),
    (10, "unterminated { comment"),
])
def test_bad_board_errors(bad, index, message):
    board = bad[index - 1]
    assert any(message in e for e in board.errors), board.errors
    with pytest.raises(WhistError) as info:
        board.position()
    assert str(info.value).startswith(f"board {index}: ")
    assert message in str(info.value)
    assert board.hands is None or index == 10


def test_bad_board_5_keeps_its_other_tags(bad):
    assert bad[4].tags["Trump"] == "S"
    assert "line 21" in bad[4].errors[0]


def test_bad_illegal_play(bad):
    b = bad[8]
    assert b.errors == []
    with pytest.raises(WhistError, match=r"^board 9: illegal play HA by E in trick 2: must follow S"):
        b.position()


def test_bad_unclosed_comment_stops_at_empty_line(bad):
    b = bad[9]
    assert b.tags["Trump"] == "S"
    assert "Leader" not in b.tags                  # swallowed by the comment


# ---------------------------------------------------------------------------
# File layout details
# ---------------------------------------------------------------------------

def test_tag_spanning_lines_and_spaces():
    b = one('[\n  Board\n   "7"\n]\n[ Deal "N:A... K... Q... J..." ]\n[Trump\t"S" ]')
    assert b.label == "7" and b.trump() == "S"
    assert b.hands == [["SA"], ["SK"], ["SQ"], ["SJ"]]


def test_string_escapes():
    b = one('[Deal "N:A... K... Q... J..."][Event "a \\"b\\" c\\\\d \\2R"]')
    assert b.tags["Event"] == 'a "b" c\\d \\2R'


def test_semicolon_and_brace_in_strings_are_not_comments():
    b = one('[Deal "N:A... K... Q... J..."]\n[Event "a;b {c}"] ; real comment')
    assert b.tags["Event"] == "a;b {c}"


def test_comments_and_escape_lines():
    b = one('% PBN 2.1\n{ a comment [Trump "H"] }\n[Deal "N:A... K... Q... J..."]\n'
            '%[Trump "D"]\n; [Trump "C"]\n[Trump "S"] { [Leader "E"] } [Leader "W"]')
    assert b.tags == {"Deal": "N:A... K... Q... J...", "Trump": "S", "Leader": "W"}


def test_empty_line_ends_game_but_not_inside_brace_comment():
    text = ('[Board "1"]\n[Deal "N:A... K... Q... J..."]\n{ one\n\n  two }\n[Trump "S"]\n'
            '   \t \n[Board "2"]\n[Deal "N:K... A... Q... J..."]\n')
    boards = read_pbn(text)
    assert [b.label for b in boards] == ["1", "2"]
    assert boards[0].tags["Trump"] == "S"
    assert "Trump" not in boards[1].tags


def test_crlf_and_bom():
    text = '\ufeff% PBN 2.1\r\n[Board "1"]\r\n[Deal "N:A... K... Q... J..."]\r\n\r\n[Board "2"]\r\n' \
           '[Deal "N:A... K... Q... J..."]\r\n'
    assert [b.label for b in read_pbn(text)] == ["1", "2"]


def test_duplicate_tag_first_wins_unless_it_decides_the_analysis():
    b = one('[Event "a"]\n[Event "b"]\n[Deal "N:A... K... Q... J..."]\n[Trump "S"]\n'
            '[trump "S"]')
    assert b.trump() == "S" and b.tags["Event"] == "a" and b.errors == []
    # the trump given twice, two values: which is meant? (spades was
    # solved without a word)
    b = one('[Deal "N:A... K... Q... J..."]\n[Trump "S"]\n[TRUMP "H"]')
    assert b.errors == ["line 3: the Trump tag given twice, 'S' then 'H': which is meant?"]
    with pytest.raises(WhistError, match="given twice"):
        b.position()
    # the same value in another case or spacing, an inherited "#", a tag
    # no analysis reads: not two values
    b = one('[Deal "N:A... K... Q... J..."]\n[Trump "S"]\n[trump " s "]\n[Dealer "N"]\n'
            '[Dealer "#"]\n[Vulnerable "None"]\n[Vulnerable "Love"]')
    assert b.errors == [] and b.trump() == "S"


def test_tag_names_in_any_case_are_the_standard_s():
    # [play "W"]: its cards are the Play section (they were dropped, the
    # board solved from the opening lead)
    text = ('[Deal "N:A.2.. K.3.. Q.4.. J.5.."]\n[Trump "NT"]\n[play "W"]\nSJ SA SK SQ\n')
    b = one(text)
    assert b.sections["Play"] == ["SJ SA SK SQ"]
    pos = b.position()
    assert pos.ns_tricks == 1 and pos.turn == 0
    # lower-case Board and Deal without an empty line between the games:
    # two boards (the second was dropped as a duplicate)
    boards = read_pbn('[board "1"]\n[deal "N:A... K... Q... J..."]\n[trump "NT"]\n'
                      '[board "2"]\n[deal "N:A... Q... K... J..."]\n[trump "S"]\n')
    assert [(b.label, b.trump()) for b in boards] == [("1", None), ("2", "S")]


def test_line_ends_and_byte_order_marks_anywhere():
    game = ['[Board "1"]', '[Deal "N:A... K... Q... J..."]', '[Trump "NT"]', '[Leader "E"]']
    # CR CR LF (CRLF written again in a text mode): one line end (each
    # tag was a game of its own)
    (b,) = read_pbn("\r\r\n".join(game) + "\r\r\n")
    assert b.errors == [] and b.trump() is None and b.leader() == 1
    # two files with a byte order mark each, put together with cat
    two = "\ufeff" + "\n".join(game) + "\n\n\ufeff" + "\n".join(game).replace('"1"', '"2"')
    assert [(b.label, b.errors) for b in read_pbn(two)] == [("1", []), ("2", [])]


def test_windows_1252_punctuation_and_a_stray_control_byte(tmp_path):
    f = tmp_path / "w.pbn"
    f.write_bytes(b'[Title "The \x93Bath\x94 coup \x96 caf\xe9"]\n'
                  b'[Event "\x01"][Deal "N:A... K... Q... J..."]\n')
    (b,) = read_pbn_file(str(f))
    # curly quotes and a dash, not the control characters U+0093...
    assert b.tags["Title"] == "The \u201cBath\u201d coup \u2013 caf\u00e9"
    # one control byte in a short file is no binary data (it was refused),
    # nor four in a hundred bytes
    assert b.tags["Event"] == "\x01" and b.errors == []
    # an empty file is empty, not binary
    e = tmp_path / "e.pbn"
    e.write_bytes(b"")
    with pytest.raises(WhistError, match="empty file"):
        read_pbn_file(str(e))
    g = tmp_path / "g.pbn"
    g.write_bytes(b'[Event "\x01\x02\x03\x04"][Deal "N:A... K... Q... J..."]\n' + b" " * 50)
    assert read_pbn_file(str(g))[0].errors == []


def test_missing_empty_line_between_games():
    text = ('[Event "x"]\n[Board "1"]\n[Deal "N:A... K... Q... J..."]\n'
            '[Event "x"]\n[Board "2"]\n[Deal "N:K... A... Q... J..."]\n')
    boards = read_pbn(text)
    assert [b.label for b in boards] == ["1", "2"]
    assert boards[1].hands[N] == ["SK"]


def test_hash_without_previous_value_is_empty():
    b = one('[Deal "N:A... K... Q... J..."]\n[Event "#"]')
    assert b.tags["Event"] == ""


def test_hash_skips_games_without_the_tag():
    deal = '[Deal "N:A... K... Q... J..."]'
    boards = read_pbn(f'{deal}[Site "Paris"]\n\n{deal}\n\n{deal}[Site "#"]\n')
    assert "Site" not in boards[1].tags
    assert boards[2].tags["Site"] == "Paris"


def test_hash_may_copy_a_deal():
    boards = read_pbn('[Deal "N:A... K... Q... J..."][Trump "S"]\n\n[Deal "#"][Trump "H"]\n')
    assert boards[1].hands == boards[0].hands and boards[1].trump() == "H"


def test_double_hash_alone_is_an_empty_default():
    deal = '[Deal "N:A... K... Q... J..."]'
    boards = read_pbn(f'[Board "##"]{deal}\n\n{deal}\n\n[Board "5"]{deal}\n\n{deal}\n')
    assert [b.tags["Board"] for b in boards] == ["", "", "5", "5"]
    assert [b.label for b in boards] == ["1", "2", "5", "5"]


def test_double_hash_game_with_deal_is_a_board():
    deal = '[Deal "N:A... K... Q... J..."]'
    boards = read_pbn(f'[Event "##Cup"]{deal}\n\n{deal}\n')
    assert [b.tags["Event"] for b in boards] == ["Cup", "Cup"]


def test_sections_collect_data_per_tag():
    b = one('[Deal "N:A... K... Q... J..."]\n[MyTable "A;B"]\n1 2\n 3   4 ; c\n'
            '"a string; with semicolon" 5\n[Other "x"] y\nz')
    assert b.sections == {"MyTable": ["1 2", "3   4", '"a string; with semicolon" 5'],
                          "Other": ["y", "z"]}


def test_text_outside_tags_is_an_error():
    b = one('stray words\n[Deal "N:A... K... Q... J..."]\n[Trump "S"]')
    assert any("text outside a tag: 'stray'" in e for e in b.errors)


def test_stray_bracket_is_an_error():
    b = one('[Deal "N:A... K... Q... J..."]\n]\n[Trump "S"]')
    assert any("unexpected ']'" in e for e in b.errors)


def test_bad_tag_name():
    b = one('[Deal "N:A... K... Q... J..."]\n[Bad-Name "x"]\n[Trump "S"]')
    assert any("bad tag" in e for e in b.errors)
    assert b.tags["Trump"] == "S"


def test_lowercase_tag_names_fall_back():
    b = one('[deal "N:A... K... Q... J..."]\n[trump "s"]\n[leader "e"]')
    assert b.errors == [] and b.trump() == "S" and b.leader() == E


def test_question_mark_means_unknown():
    b = one('[Deal "N:A... K... Q... J..."][Board "?"][Declarer "?"][Contract ""][Dealer "N"][Trump "D"]')
    assert b.label == "1" and b.declarer() is None and b.contract() is None
    assert b.leader() == E


def test_empty_and_comment_only_texts():
    assert read_pbn("") == []
    assert read_pbn("% PBN 2.1\n\n{ nothing }\n; at all\n\n") == []


def test_not_pbn_at_all():
    with pytest.raises(WhistError, match="notes.txt: not a PBN file"):
        read_pbn("Dear diary,\ntoday I played whist.\n", "notes.txt")


def test_nul_in_text():
    with pytest.raises(WhistError, match="x.pbn: .*binary"):
        read_pbn('[Deal "N:A... K... Q... J..."]\x00', "x.pbn")


# ---------------------------------------------------------------------------
# Deals
# ---------------------------------------------------------------------------

def test_deal_one_unknown_hand_is_deduced():
    b = one('[Deal "S:Q985.K8742..QT63 32..QJT853.AK742 JT64.AQT93.962.5 -"]')
    assert b.errors == []
    assert b.hands[E] == parse_hand("AK7.J65.AK74.J98")


def test_deal_unknown_hand_deduced_with_jokers_and_kitty():
    b = one('[Deal "N:AQ92.QJ32.K5.J2 - KT.A864.A932.T7 3.97.Q876.AQ865"][Kitty "4.KT.T4.K"]')
    assert b.errors == []
    assert sorted(b.hands[E]) == sorted(parse_hand("J8765.5.J.943.HL"))


def test_deal_unknown_hand_in_an_end_position():
    b = one('[Deal "N:A... K... Q... -"]')
    assert b.errors == ["W's hand is not known ('-' in the Deal): use simulate"]
    assert b.hands is None


@pytest.mark.parametrize("deal, message", [
    ("AKQ... JT9... 876... 543...", "must start with the first seat"),
    ("N:AKQ... JT9... 876...", "needs 4 hands, found 3"),
    ("N:... ... ... ...", "the Deal has no cards"),
    ("N:A... K... Q... J..", "needs 4 suit groups"),
    ("N:AK.A.A.A.Q K.K.K.K. Q.Q.Q.Q. J.J.J.J.", "unknown joker 'Q'"),
    ("N:AA... K... Q... J...", "card SA appears twice"),
])
def test_bad_deals(deal, message):
    b = one(f'[Board "3"][Deal "{deal}"][Trump "S"][Leader "N"]')
    assert len(b.errors) == 1 and message in b.errors[0], b.errors
    with pytest.raises(WhistError, match=f"^board 3: .*{re.escape(message)}"):
        b.start_position()


def test_kitty_duplicate_with_deal():
    b = one('[Deal "N:A... K... Q... J..."][Kitty "A..."]')
    assert b.errors == ["duplicate card SA (in the kitty and held by N)"]


def test_bad_kitty():
    b = one('[Deal "N:A... K... Q... J..."][Kitty "SX HK"]')
    assert len(b.errors) == 1 and b.errors[0].startswith("bad Kitty: unknown card 'SX'")


def test_kitty_and_undealt_must_agree():
    deal = '[Deal "N:A... K... Q... J..."]'
    assert one(deal + '[Kitty "2.3.."][Undealt "2.3.."]').errors == []
    assert one(deal + '[Kitty "2.3.."][Undealt "H3 S2"]').errors == []
    b = one(deal + '[Kitty "2.3.."][Undealt "4.3.."]')
    assert b.errors == ["the Kitty (2.3..) and Undealt (4.3..) tags name different cards"]
    assert one(deal + '[Undealt "2.3.."]').kitty == ["S2", "H3"]


# A bid whist deal: N-S-E-W twelve cards each and the jokers, a kitty of six.
_BID = ('[Deal "N:53.92.K3.K843.HL QT.KT876.AQ98.J A9862.A3.6542.7 KJ74.Q4.JT7.QT5"]'
        '[Kitty ".J5..A962"]')


def test_bid_whist_bidder_is_the_declarer():
    b = one(_BID + '[Bidder "S"][Declarer "E"][Contract "4S"]')
    for ask in (b.declarer, b.bidder, b.leader):
        with pytest.raises(WhistError, match=r"the Bidder \(S\) and the Declarer \(E\) differ"):
            ask()
    # (the deal and kitty are read all the same: --bidder overrides both tags)
    assert b.exchange_deal()[1] == ["HJ", "H5", "CA", "C9", "C6", "C2"]
    assert one(_BID + '[Bidder "S"][Declarer "S"]').declarer() == S
    # outside bid whist a Bidder tag means nothing to the play
    plain = one('[Deal "N:A... K... Q... J..."][Bidder "S"][Declarer "E"]')
    assert plain.declarer() == E and plain.leader() == S


def test_the_exchange_is_bid_whist_s():
    with pytest.raises(WhistError, match="jokers but the Variant is 'classic'"):
        one(_BID + '[Variant "classic"]').exchange_deal()
    plain = '[Deal "N:AK... QJ... T9... 87..."][Kitty "2..."][Variant "whist"]'
    with pytest.raises(WhistError, match="the Variant is 'whist': the exchange"):
        one(plain).exchange_deal()
    hands, kitty = one(_BID).exchange_deal()
    assert len(kitty) == 6 and sum(map(len, hands)) == 48


def test_deal_lowercase_seat_and_tens():
    b = one('[Deal "e:a10... kq... j9... 87..."]')
    assert b.errors == []
    assert b.hands[E] == ["SA", "ST"] and b.hands[N] == ["S8", "S7"]


def test_deal_unequal_hands():
    b = one('[Deal "e:a10... k... q... j..."]')
    assert b.errors == ["unequal hands (N 1, E 2, S 1, W 1)"]


@pytest.mark.parametrize("deal", [
    "N:AKQJT98765432.A... - - -",                               # a partial deal
    "N:AKQJT98765432.A... KQJT98765432.AK... - -",
])
def test_deal_hands_too_big(deal):
    assert one(f'[Deal "{deal}"]').errors == ["hands of 14 cards (at most 13)"]


def test_hands_are_copies():
    b = one('[Deal "N:A... K... Q... J..."]')
    b.hands[N].append("S2")
    assert b.hands[N] == ["SA"]


def test_variant():
    plain = '[Deal "N:A... K... Q... J..."]'
    assert one(plain).game() == "classic"
    assert one('[Deal "N:A... K... Q... ....H"]').game() == "bid"
    assert one(plain + '[Kitty "2..."]').game() == "bid"
    assert one(plain + '[Variant "Bid Whist"]').game() == "bid"
    # the rotating-trump variant is classic whist (its trump: the Trump tag)
    for name in ("rotating", "Rotating-NT", "rotating trumps"):
        assert one(plain + f'[Variant "{name}"]').game() == "classic"
    with pytest.raises(WhistError, match="bad Variant tag 'poker' .expected classic, rotating or bid"):
        one(plain + '[Variant "poker"]').game()


# ---------------------------------------------------------------------------
# Fallbacks and overrides
# ---------------------------------------------------------------------------

PLAIN = '[Board "3"][Deal "N:A... K... Q... J..."]'


@pytest.mark.parametrize("tags, leader", [
    ('[Leader "S"][Play "E"][Declarer "N"][Dealer "W"]', S),
    ('[Play "E"][Declarer "N"][Dealer "W"]', E),
    ('[Declarer "N"][Dealer "W"]', E),
    ('[Declarer "^W"]', N),
    ('[Dealer "W"]', N),
    ('[Dealer "S"][Bidder "N"][Variant "bid"]', N),
    ('[Dealer "S"][Bidder "E"]', W),               # classic: the Bidder does not lead
])
def test_leader_fallbacks(tags, leader):
    assert one(PLAIN + tags).leader() == leader


def test_leader_missing_and_overrides():
    b = one(PLAIN + '[Trump "S"]')
    with pytest.raises(WhistError, match=r"^board 3: missing leader"):
        b.leader()
    assert b.leader("E") == E and b.leader(2) == S and b.leader("west") == W
    assert b.start_position(leader="W").leader == W
    with pytest.raises(WhistError, match="unknown seat"):
        b.leader("X")


def test_trump_fallbacks_and_overrides():
    assert one(PLAIN + '[Trump "D"][Contract "4S"]').trump() == "D"
    assert one(PLAIN + '[Contract "4S"]').trump() == "S"
    assert one(PLAIN + '[Contract "3NT"]').trump() is None
    assert one(PLAIN + '[Trump "NT"]').trump() is None
    assert one(PLAIN + '[Trump "S"]').trump("NT") is None
    assert one(PLAIN + '[Trump "S"]').trump("h") == "H"
    with pytest.raises(WhistError, match=r"^board 3: missing trump: no Trump tag or Contract"):
        one(PLAIN).trump()
    with pytest.raises(WhistError, match=r"^board 3: bad Trump tag"):
        one(PLAIN + '[Trump "X"]').trump()
    with pytest.raises(WhistError, match=r"^board 3: bad Contract tag"):
        one(PLAIN + '[Contract "9Q"]').trump()


def test_ranking_fallbacks_and_overrides():
    assert one(PLAIN).ranking() == "up"
    assert one(PLAIN + '[Contract "4S\u2193"]').ranking() == "down"
    assert one(PLAIN + '[Contract "4S\u2193"][Ranking "up"]').ranking() == "up"
    assert one(PLAIN + '[Ranking "downtown"]').ranking() == "down"
    assert one(PLAIN + '[Ranking "down"]').ranking("up") == "up"
    with pytest.raises(WhistError, match=r"^board 3: bad Ranking tag"):
        one(PLAIN + '[Ranking "left"]').ranking()


def test_goal_forms():
    assert one(PLAIN + '[Goal "NS 5"]').goal() == ("NS", 5)
    assert one(PLAIN + '[Goal "ew 3"]').goal() == ("EW", 3)
    assert one(PLAIN + '[Goal "N-S 4"]').goal() == ("NS", 4)
    assert one(PLAIN + '[Goal "W 2"]').goal() == ("EW", 2)
    with pytest.raises(WhistError, match=r"^board 3: bad Goal tag 'most'"):
        one(PLAIN + '[Goal "most"]').goal()


def test_seat_tags():
    b = one(PLAIN + '[Bidder "w"][Declarer "^S"][Dealer "E"]')
    assert (b.bidder(), b.declarer(), b.dealer()) == (W, S, E)
    with pytest.raises(WhistError, match=r"^board 3: bad Bidder tag"):
        one(PLAIN + '[Bidder "Q"]').bidder()


# ---------------------------------------------------------------------------
# Play sections
# ---------------------------------------------------------------------------

# N holds SA SK H2, E S3 S2 HA, S SQ SJ D2, W ST S9 H3.
SMALL = '[Board "5"][Deal "N:AK.2.. 32.A.. QJ..2. T9.3.."][Trump "S"]\n'


def test_play_tokens_and_annotations():
    b = one(SMALL + '[Play "N"]\nsa! S2 =1= sq ?! $12 s10 !!\n')
    assert b.play_cards("S", "up") == ["SA", "S2", "SQ", "ST"]
    assert b.position().leader == N


def test_play_star_ends_section():
    b = one(SMALL + '[Play "N"]\nSA S2 SQ ST\n*\nSK S3 SJ S9\n')
    assert b.play_cards("S", "up") == ["SA", "S2", "SQ", "ST"]


def test_play_columns_rotate_with_the_winner():
    # Play "E": the columns are E S W N.  E leads S2, S SQ, W S9, N SA: N
    # wins, so trick 2 starts in N's (last) column: SK, then E S3, S SJ, W ST.
    b = one(SMALL + '[Play "E"]\nS2 SQ S9 SA\nS3 SJ ST SK\n')
    assert b.play_cards("S", "up") == ["S2", "SQ", "S9", "SA", "SK", "S3", "SJ", "ST"]
    pos = b.position()
    assert pos.leader == N and (pos.ns_tricks, pos.ew_tricks) == (2, 0)


def test_play_partial_trick_written_short():
    # Only the first cards of the last line: columns N, E (N leads).
    b = one(SMALL + '[Play "N"]\nSA S2 SQ ST\nSK S3\n')
    pos = b.position()
    assert pos.trick == ("SK", "S3") and pos.turn == S


def test_play_partial_trick_in_play_order_is_explained():
    # N wins trick 1; trick 2 written in play order from W instead of columns.
    b = one(SMALL + '[Play "W"]\nST SA S2 SQ\nH2 HA\n')
    with pytest.raises(WhistError, match=r"^board 5: trick 2 of the Play section: .*seat order"):
        b.position()


def test_play_after_unfinished_trick():
    b = one(SMALL + '[Play "N"]\nSA - SQ ST\nSK S3 SJ S9\n')
    with pytest.raises(WhistError, match="trick 1"):
        b.position()


def test_play_unknown_card():
    b = one(SMALL + '[Play "N"]\nSA S2 SQ ST\nSK SX\n')
    with pytest.raises(WhistError, match=r"^board 5: unknown card 'SX' in the Play section \(trick 2\)"):
        b.position()


def test_play_irregularity_not_supported():
    b = one(SMALL + '[Play "N"]\nSA ^R H3 SQ ST\n')
    with pytest.raises(WhistError, match=r"revoke \(\^R\)"):
        b.position()


def test_play_card_not_held():
    b = one(SMALL + '[Play "N"]\nSA S2 SQ H2\n')
    with pytest.raises(WhistError, match="illegal play H2 in trick 1: W is on turn and it is held by N"):
        b.position()


def test_play_conflicts_with_leader():
    b = one(SMALL + '[Leader "E"][Play "N"]\nSA S2 SQ ST\n')
    with pytest.raises(WhistError, match=r"the leader is E \(the Leader tag\) but the Play section "
                                         "starts with N"):
        b.position()
    b = one(SMALL + '[Play "N"]\nSA S2 SQ ST\n')
    with pytest.raises(WhistError, match=r"the leader is W \(as asked\) but the Play section "
                                         "starts with N"):
        b.position(leader="W")
    # Without cards, the Play tag is only a leader.
    assert one(SMALL + '[Play "W"]\n*\n').position().leader == W


def test_play_without_seat_uses_the_leader():
    b = one(SMALL + '[Leader "N"][Play ""]\nSA S2 SQ ST\n')
    assert b.position().ns_tricks == 1


def test_play_note_tags_do_not_end_the_section():
    b = one(SMALL + '[Play "N"]\nSA =1= S2 SQ ST\n[Note "1:top"]\nSK S3\n')
    assert b.notes == ["1:top"]
    assert b.position().trick == ("SK", "S3")


def test_play_with_jokers_at_no_trump():
    # N leads JH at no-trump: the next card (E's S2) fixes the suit.
    b = one('[Deal "N:2....H 3....L 4..2. .2..2"][Trump "NT"][Play "N"]\nJH S3 S4 H2\n')
    pos = b.position()
    assert pos.leader == S and pos.ns_tricks == 1


def test_start_position_ignores_play():
    b = one(SMALL + '[Play "N"]\nSA S2 SQ ST\n')
    assert [len(h) for h in b.start_position().hands] == [3, 3, 3, 3]


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------

def test_missing_file():
    with pytest.raises(WhistError, match="nowhere.pbn: no such file"):
        read_pbn_file("/nonexistent/nowhere.pbn")


def test_directory(tmp_path):
    with pytest.raises(WhistError, match="is a directory"):
        read_pbn_file(str(tmp_path))


def test_binary_junk(tmp_path):
    junk = tmp_path / "junk.pbn"
    junk.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(WhistError, match=r"junk\.pbn: not a PBN text file \(binary data\)"):
        read_pbn_file(str(junk))
    ctl = tmp_path / "ctl.pbn"
    ctl.write_bytes(b"\x01\x02\x03\x04\x05[Event \"x\"]")
    with pytest.raises(WhistError, match="binary"):
        read_pbn_file(str(ctl))
    # random bytes with a line end before their first control byte: no
    # tag before it, so no text before the binary data either
    noise = tmp_path / "noise.pbn"
    noise.write_bytes(b"\xf3\xa9 \xe1\n\xc4\x01\x00\x9b" * 100)
    with pytest.raises(WhistError, match=r"noise\.pbn: not a PBN text file \(binary data\)"):
        read_pbn_file(str(noise))


def test_latin1_and_utf8_lines(tmp_path):
    f = tmp_path / "mixed.pbn"
    f.write_bytes('[Event "Caf\u00e9 de la Paix"]\n'.encode("latin-1")
                  + '[Deal "N:A... K... Q... J..."][Contract "1S\u2193"]\n'.encode("utf-8")
                  + b"\x1a")
    (b,) = read_pbn_file(str(f))
    assert b.tags["Event"] == "Caf\u00e9 de la Paix"
    assert b.ranking() == "down" and b.errors == []


def test_utf8_with_bom(tmp_path):
    f = tmp_path / "bom.pbn"
    f.write_bytes(b"\xef\xbb\xbf" + '[Event "\u00c5rhus"][Deal "N:A... K... Q... J..."]'.encode())
    (b,) = read_pbn_file(str(f))
    assert b.tags["Event"] == "\u00c5rhus"


def test_stdin(monkeypatch):
    data = b'[Board "9"][Deal "N:A... K... Q... J..."]\n'
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    (b,) = read_pbn_file("-")
    assert b.file == "<stdin>" and b.label == "9"


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------

def test_format_deal():
    hands = [parse_hand("AK3.QJ9..T2.HL"), parse_hand("Q.T.K.A"), [], None]
    assert format_deal(hands) == "N:AK3.QJ9..T2.HL Q.T.K.A ... -"
    assert format_deal(hands, 2) == "S:... - AK3.QJ9..T2.HL Q.T.K.A"
    assert format_deal(hands, "E") == "E:Q.T.K.A ... - AK3.QJ9..T2.HL"


def test_write_board_order():
    tags = {"Trump": "S", "Play": "W", "Deal": "N:A... K... Q... J...", "Board": "2",
            "OptimumResultTable": "Declarer;Denomination\\2R;Result\\2R", "Event": "E",
            "Auction": "N", "Annotator": "me", "Kitty": "2..."}
    sections = {"Play": ["SJ SA SK SQ"], "OptimumResultTable": ["N  S  1"], "Auction": ["1S AP"]}
    assert write_board(tags, sections) == (
        '[Event "E"]\n'
        '[Board "2"]\n'
        '[Deal "N:A... K... Q... J..."]\n'
        '[Annotator "me"]\n'
        '[Kitty "2..."]\n'
        '[Trump "S"]\n'
        '[Auction "N"]\n'
        '1S AP\n'
        '[Play "W"]\n'
        'SJ SA SK SQ\n'
        '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\n'
        'N  S  1\n')


def test_write_board_section_without_tag():
    with pytest.raises(ValueError):
        write_board({"Deal": "N:A... K... Q... J..."}, {"Play": ["SA"]})


@pytest.mark.parametrize("value", ['a "b"', "back\\slash", "end\\", '\\"', "\\\\x", "x\\2R", "",
                                   "\u2193 caf\u00e9"])
def test_write_read_string_round_trip(value):
    text = write_board({"Deal": "N:A... K... Q... J...", "Description": value})
    assert one(text).tags["Description"] == value


def test_write_pbn_and_read_back():
    boards = [({"Board": "1", "Deal": "N:A... K... Q... J...", "Trump": "S"}, {}),
              {"Board": "2", "Deal": "N:K... A... Q... J...", "Trump": "H"}]
    text = write_pbn(boards)
    assert text.startswith("% PBN 2.1\n[Board \"1\"]\n")
    assert "\n\n[Board \"2\"]" in text
    back = read_pbn(text)
    assert [b.tags for b in back] == [boards[0][0], boards[1]]


def test_export_file_round_trip(export):
    text = write_pbn(export)
    again = read_pbn(text)
    assert len(again) == len(export)
    for a, b in zip(export, again):
        assert a.tags == b.tags
        assert a.sections == b.sections
        assert a.hands == b.hands
    assert again[1].position() == export[1].position()
    assert again[0].position() == export[0].position()


def test_optimum_result_table_uptown():
    # N-S tricks when each seat leads.
    table = {s: {"up": {"N": 3, "E": 9, "S": 4, "W": 8}} for s in ("S", "H", "D", "C", "NT")}
    table["NT"]["up"] = {"N": 1, "E": 10, "S": 2, "W": 11}
    value, lines = optimum_result_table(table)
    assert value == "Declarer;Denomination\\2R;Result\\2R"
    assert len(lines) == 20
    # Declarer N: E leads; N-S take 10 at NT.  Declarer E: S leads; E-W take 13 - 2.
    assert lines[0] == "N NT 10"
    assert lines[1] == "N  S  9"
    assert lines[5] == "S NT 11"           # W leads
    assert lines[10] == "E NT 11"          # S leads: 13 - 2
    assert lines[15] == "W NT 12"          # N leads: 13 - 1
    assert [ln.split()[0] for ln in lines[::5]] == ["N", "S", "E", "W"]
    # The table reads back as a PBN section.
    b = one(write_board({"Deal": "N:A... K... Q... J...", "OptimumResultTable": value},
                        {"OptimumResultTable": lines}))
    assert b.sections["OptimumResultTable"] == lines


def test_optimum_result_table_downtown_and_bid_whist():
    table = {"NT": {"up": {"N": 5, "E": 7, "S": 6, "W": 8}, "down": {0: 4, 1: 2, 2: 3, 3: 1}}}
    value, lines = optimum_result_table(table, total=12)
    assert value == "Declarer;Denomination\\2R;Ranking\\4L;Result\\2R"
    assert lines[:2] == ["N NT up    7", "N NT down  2"]
    assert lines[-1] == "W NT down  8"     # N leads downtown: 12 - 4
    assert len(lines) == 8


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 13), st.booleans(), st.integers(0, 3))
def test_deal_round_trip(rng, n, jokers, first):
    deck = full_deck(jokers and n <= 12)
    rng.shuffle(deck)
    hands = [deck[i * n:(i + 1) * n] for i in range(4)]
    b = one(f'[Deal "{format_deal(hands, first)}"]')
    assert b.errors == []
    assert [sorted(h) for h in b.hands] == [sorted(h) for h in hands]
    assert one(f'[Deal "{b.deal_string()}"]').hands == b.hands


@settings(max_examples=80, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 13), st.integers(0, 52),
       st.sampled_from(["S", "H", "D", "C", "NT"]), st.sampled_from(["up", "down"]),
       st.integers(0, 3), st.booleans())
def test_random_play_round_trip(rng, n, ncards, trump, ranking, leader, jokers):
    """Random legal play, written in PBN column order, reads back to the same
    position (the conversion is checked against cards.Position)."""
    jokers = jokers and n <= 12
    deck = full_deck(jokers)
    rng.shuffle(deck)
    hands = [deck[i * n:(i + 1) * n] for i in range(4)]
    pos = Position.make(hands, None if trump == "NT" else trump, ranking, leader)
    tricks, current = [], []
    for _ in range(min(ncards, 4 * n)):
        card = rng.choice(pos.legal_moves())
        current.append((pos.turn, card))
        pos = pos.play(card)
        if len(current) == 4:
            tricks.append(current)
            current = []
    if current:
        tricks.append(current)
    lines = []
    for trick in tricks:
        cols = ["-"] * 4
        for seat, card in trick:
            cols[(seat - leader) % 4] = card
        lines.append(" ".join(cols))
    text = (f'[Deal "{format_deal(hands)}"]\n[Trump "{trump}"]\n[Ranking "{ranking}"]\n'
            f'[Play "{SEATS[leader]}"]\n' + "".join(line + "\n" for line in lines) + "*\n")
    b = one(text)
    assert b.position() == pos


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.from_regex(r"[A-Z][A-Za-z0-9_]{0,10}", fullmatch=True)
                       .filter(lambda name: name != "Note"),
                       st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=20)
                       .filter(lambda v: not v.startswith("#")),
                       max_size=6))
def test_tags_round_trip(tags):
    tags = dict(tags)
    tags["Deal"] = "N:A... K... Q... J..."
    b = one(write_board(tags))
    assert b.tags == tags


def test_comments_are_kept_per_board():
    text = (
        '[Board "1"]\n[Deal "N:A... K... Q... J..."] {one line}\n{a comment\nover two lines}\n\n'
        '; not a brace comment\n[Board "2"]\n[Deal "N:A... K... Q... J..."]\n'
    )
    b1, b2 = read_pbn(text)
    assert b1.comments == ["one line", "a comment\nover two lines"]
    # (a ';' comment runs to the end of its line: PBN commentary too, kept)
    assert b2.comments == ["not a brace comment"] and b2.comment_places == [None]


def test_a_line_of_too_many_items_is_bad_input_and_the_rest_is_read():
    deal = '[Deal "N:A... K... Q... J..."]\n[Trump "NT"]\n[Leader "N"]\n'
    words = pbn_module.MAX_LINE_ITEMS + 50
    text = (deal + '[Auction "N"]\n' + " ".join(["Pass"] * words) + "\n\n"
            + deal + '[Auction "N"]\n' + " ".join(["Pass"] * 40) + "\n")
    bad, good = read_pbn(text)
    assert any(f"line 5: more than {pbn_module.MAX_LINE_ITEMS:,} items on one line" in e
               for e in bad.errors), bad.errors
    assert good.errors == []
    assert good.sections["Auction"] == [" ".join(["Pass"] * 40)]


def test_a_section_line_keeps_its_columns():
    # (the pieces of a long line are joined once: the same text as before)
    b = one('[Deal "N:A... K... Q... J..."]\n[Auction "N"]\n'
            + "1C   Pass  1S\tPass {a comment} 2S\n")
    assert b.sections["Auction"] == ["1C   Pass  1S Pass             2S"]


def test_too_many_items_without_an_empty_line_are_bad_input(monkeypatch):
    monkeypatch.setattr(pbn_module, "MAX_GAME_ITEMS", 300)
    deal = '[Deal "N:A... K... Q... J..."]\n[Trump "NT"]\n[Leader "N"]\n'
    text = (deal + '[Play "N"]\n' + "S2\n" * 400 + "\n" + deal)
    bad, good = read_pbn(text)
    assert any("more than 300 items without an empty line" in e for e in bad.errors), bad.errors
    assert good.errors == []


@pytest.mark.parametrize("value, said", [("?", "unknown ('?')"), ("", "empty ('')")])
def test_missing_trump_with_a_contract_of_no_value_says_so(value, said):
    b = one(f'[Board "3"]\n[Deal "N:A... K... Q... J..."]\n[Contract "{value}"]\n'
            '[Leader "N"]\n')
    with pytest.raises(WhistError, match=re.escape(
            f"board 3: missing trump: no Trump tag, and the Contract is {said}; give --trump")):
        b.position()


def test_bid_whist_seats_follow_the_game():
    """Bid whist: the bidder declares and leads.  A Declarer tag alone names
    the bidder (bid and check refused it as 'no bidder'); a Leader alone
    names the declaring seat (simulate and review took its right-hand
    opponent); a partial deal whose Unseen cards leave a kitty holds the
    discard's book."""
    deal = '[Deal "N:KT5.9.K3. 76.82..J2 .A.2.KQ63 A.5.Q87.9"]'
    bid = '[Variant "bid"]'
    assert one(bid + deal + '[Declarer "S"]').bidder() == S
    assert one(deal + '[Declarer "S"]').bidder() is None          # bridge: no bidder
    assert one(bid + deal + '[Leader "E"]').declaring_seat() == E
    assert one(deal + '[Leader "E"]').declaring_seat() is None
    assert one(bid + deal + '[Bidder "W"][Leader "E"]').declaring_seat() == W
    assert one(bid + deal).kitty_book() == 0                       # no kitty given
    assert one(bid + deal + '[Unseen "S9 S4 H4"]').kitty_book() == 1
    assert one(bid + deal + '[Kitty "S9 S4 H4"]').kitty_book() == 1
    assert one(bid + '[Deal "N:KT5.9.K3. - .A.2.KQ63 -"]').kitty_book() == 1   # the rest of the deck
    assert one(deal + '[Unseen "S9 S4 H4"]').kitty_book() == 0     # classic whist


def test_a_huge_hand_or_card_list_is_refused_in_linear_time():
    # a duplicate check counting each card took time in the square of the
    # list (a Kitty of 100,000 cards did not end in a minute); here
    # 300,000 cards: a count per card would be 10^11 steps
    n = 300_000
    (b,) = read_pbn('[Deal "N:%s... K... Q... J..."]\n[Kitty "%s"]\n[Trump "S"][Leader "N"]'
                    % ("A" * n, "S2 " * n))
    assert any("card SA appears twice" in e for e in b.errors)
    assert any("card S2 appears twice" in e for e in b.errors)


def test_play_section_cards_with_suit_symbols_and_the_seat_order_hint():
    # ♠J as copied from a web page (it was "unknown card '♠'")
    deal = '[Deal "N:A2.2.. K3.3.. Q4.4.. J5.5.."]\n[Trump "NT"]\n[Play "W"]\n'
    b = one(deal + "\u2660J \u2660A \u2660K \u2660Q\n")
    assert b.position().ns_tricks == 1
    # trick 2 written from its leader (N) rather than from the Play tag's
    # seat (W): the message says how PBN lists a trick
    b = one(deal + "SJ SA SK SQ\nS2 S3 S4 S5\n")
    with pytest.raises(WhistError, match="in seat order from the Play tag's seat W, whoever led it"):
        b.position()


def test_memory_held_per_board_of_a_big_file_stays_small():
    # MAX_INPUT_MB's worst case, boards of one card a hand: 1,570 bytes of
    # memory held per board of 32 bytes of file while each board kept a
    # copy of its hands and of its game's lists; about 1,190 now
    import tracemalloc
    text = "".join('[Deal "N:A... K... Q... J..."]\n\n' for _ in range(5000))
    tracemalloc.start()
    try:
        boards = read_pbn(text)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(boards) == 5000 and boards[-1].hands == [["SA"], ["SK"], ["SQ"], ["SJ"]]
    assert held / len(boards) < 1400
