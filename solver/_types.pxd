# Shared C-level types of the search core (the transposition table's own
# structs are in _tt.pxd).
#
# Cards inside the engine are (suit, bit) pairs.  The bit is the card's
# power inside its suit for the deal's ranking: 0 is the lowest card, 12 the
# ace, 13 the little joker and 14 the big joker (the jokers are members of
# the trump suit in a trump contract).  At no-trump the jokers live in a
# fifth pseudo-suit, JOKERS, which never wins a trick.
from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t

from _tt cimport TTable
from _split cimport Split

cdef enum:
    NSUITS = 5        # four suits and the suitless jokers of no-trump
    JOKERS = 4        # suit index of the jokers at no-trump
    MAXPLY = 64       # cards one search can play (4 x 13) plus slack
    MAXMOVES = 16     # legal moves at a node: at most 13 cards + 2 jokers
    CUTBITS = 17      # log2 of the number of entries of the cut-off cache (two to a slot: _cutoff.pxd)


cdef struct TrickState:
    # Everything that changes when a card is played, saved whole for undo.
    int8_t leader      # seat (0..3 = N E S W) that led the current trick
    int8_t nplayed     # cards already played to the current trick (0..3)
    int8_t led         # suit to follow, -1 while none is fixed yet
    int8_t winpos      # index in the trick of the card winning so far, -1 if only jokers (no-trump)
    int8_t ns_won      # tricks N-S won since the root of the search
    int8_t left        # tricks not yet complete, the current one included
    int8_t tsuit[4]    # suits of the cards played to the current trick, by order of play
    int8_t tbit[4]     # powers of those cards
    uint16_t ledcards  # the cards of the led suit played to the current trick (16 bytes in all: saved and restored with one move)


cdef struct Move:
    int8_t suit        # suit of the card (0..3, or JOKERS)
    int8_t bit         # power of the card inside its suit (gen_moves writes the moves in the order they are tried)


cdef struct CutEntry:
    # 4 bytes (see _cutoff.pxd)
    uint16_t check     # low bits of the cut-off key (its high bits pick the slot), to tell positions apart
    uint8_t gen        # the cache's generation that wrote it (Ctx.cut_gen, 1..255): an older one counts as empty
    uint8_t card       # the card that last refuted or proved at this position: suit * 16 + power


cdef struct Ctx:
    # The whole state of one search.  Plain C: no Python objects.
    uint16_t hand[4][5]         # cards still held: hand[seat][suit] is a mask of powers
    uint16_t pres[5]            # cards of each suit still held by anyone (the union of hand[*][suit]), kept by play/unplay
    int trump                   # trump suit 0..3, or -1 for no-trump
    TrickState st               # the current trick and the score
    TrickState saved[MAXPLY]    # st before the card played at each ply
    Move moves[MAXPLY][MAXMOVES]  # move lists, one per ply
    uint64_t w[MAXPLY]          # cards whose ranks decided the result at each ply (16 bits a suit)
    uint64_t nodes              # nodes searched since the core was made
    TTable* tt                  # the transposition table searched: own_tt, or another core's (Core.share_from)
    TTable own_tt               # this core's own table
    uint64_t lenkey             # suit lengths of every hand (the table key, see TTSlot.key), updated by play/unplay
    uint16_t jokkey             # no-trump joker counts of every hand (2 bits each from bit 2), updated by play/unplay
    uint64_t lenstep[4][5]      # what a card of seat x suit adds to lenkey (0 for the jokers' suit)
    uint16_t jokstep[4][5]      # what a card of seat x suit adds to jokkey (0 but for the jokers' suit)
    CutEntry* cut               # cut-off cache: the last card that caused a cut-off at a position
    uint16_t cut_gen            # its generation now (see _cutoff.pxd's cut_clear)
    int probe_left              # leads' tricks are probed with at least this many tricks left
    int cut_probe_left          # a fourth hand's cards are looked up one trick ahead from this many tricks left, the other followers' from one more (promote_table_cut)
    int32_t job                 # the number of the search several cores share (0: a search of its own; _split.pxd)
    int32_t root_all            # the job's root is expected to be an ALL node (Core.search_job)
    Split* sp                   # the split searched: own_split, or the host's while sharing its table
    Split own_split             # this core's split: its jobs' map of moves in progress and the last job done
    int32_t watch               # look for signals every SIGNAL_NODES nodes (a search alone, in the main thread)
    int32_t halt                # a signal's handler raised: every node returns at once, the table is emptied after
    void* halted[3]             # the exception it raised (type, value, traceback: owned references)
