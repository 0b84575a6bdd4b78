# Bit helpers of the search core: population count, lowest and highest
# set bit, bit extract and deposit, and the two questions every part of the
# search asks of a suit (which of its cards are still held, and by whom).
#
# A suit held by a seat is a 16-bit mask of card powers (see _types.pxd),
# and four_suits reads a hand's four suits as one 64-bit word; these
# helpers are the only place where masks meet processor instructions (and
# this file declares the one memory hint the search uses, prefetch).
from libc.stdint cimport uint16_t, uint32_t, uint64_t

from _types cimport Ctx

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil
    void __builtin_prefetch(const void*) nogil

cdef extern from *:
    """
    /* Gather the bits of x selected by m into the low bits (bit extract). */
    /* Scatter the low bits of x to the bits set in m (bit deposit). */
    #if defined(__BMI2__)
    #include <immintrin.h>
    static inline unsigned int pext32(unsigned int x, unsigned int m) { return _pext_u32(x, m); }
    static inline unsigned int pdep32(unsigned int x, unsigned int m) { return _pdep_u32(x, m); }
    #else
    static inline unsigned int pext32(unsigned int x, unsigned int m) {
        unsigned int r = 0, bit = 1;
        while (m) { if (x & m & (0u - m)) r |= bit; m &= m - 1; bit <<= 1; }
        return r;
    }
    static inline unsigned int pdep32(unsigned int x, unsigned int m) {
        unsigned int r = 0, bit = 1;
        while (m) { if (x & bit) r |= m & (0u - m); m &= m - 1; bit <<= 1; }
        return r;
    }
    #endif
    /* Spread the 16 low bits of x to the even bits of a 32-bit word. */
    static inline unsigned int spread_even(unsigned int x) {
    #if defined(__BMI2__)
        return _pdep_u32(x, 0x55555555u);
    #else
        x &= 0xFFFFu;
        x = (x | (x << 8)) & 0x00FF00FFu;
        x = (x | (x << 4)) & 0x0F0F0F0Fu;
        x = (x | (x << 2)) & 0x33333333u;
        x = (x | (x << 1)) & 0x55555555u;
        return x;
    #endif
    }
    """
    unsigned int pext32(unsigned int x, unsigned int m) nogil
    unsigned int pdep32(unsigned int x, unsigned int m) nogil
    unsigned int spread_even(unsigned int x) nogil

cdef extern from *:
    """
    #include <string.h>
    /* four_suits puts suit s in bits 16s..16s+15, and gen_lead writes a
       Move's two bytes as one 16-bit word (put_code): both read memory
       little-endian. */
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    #error "whist-solve's engine needs a little-endian processor"
    #endif
    /* The cards of suits 0-3 of one hand (hand[seat][0..3], or pres[0..3])
       as one 64-bit word, a 16-bit lane a suit: the bounds ask a question
       of the four suits at once. */
    static inline unsigned long long four_suits(const unsigned short* p) {
        unsigned long long x; memcpy(&x, p, 8); return x;
    }
    /* In a four_suits word: the top bit of each lane (never a card: the
       powers go up to 14), and the bits below it. */
    #define LANE_TOPS 0x8000800080008000ull
    #define LANE_LOWS 0x7FFF7FFF7FFF7FFFull
    /* Bit extract on 64 bits. */
    static inline unsigned long long pext64(unsigned long long x, unsigned long long m) {
    #if defined(__BMI2__)
        return _pext_u64(x, m);
    #else
        unsigned long long r = 0, bit = 1;
        while (m) { if (x & m & (0ull - m)) r |= bit; m &= m - 1; bit <<= 1; }
        return r;
    #endif
    }
    /* Bit deposit on 64 bits. */
    static inline unsigned long long pdep64(unsigned long long x, unsigned long long m) {
    #if defined(__BMI2__)
        return _pdep_u64(x, m);
    #else
        unsigned long long r = 0, bit = 1;
        while (m) { if (x & bit) r |= m & (0ull - m); m &= m - 1; bit <<= 1; }
        return r;
    #endif
    }
    /* The lowest bit of each lane. */
    #define LANE_ONES 0x0001000100010001ull
    """
    uint64_t four_suits(const uint16_t* p) nogil
    uint64_t pext64(uint64_t x, uint64_t m) nogil
    uint64_t pdep64(uint64_t x, uint64_t m) nogil
    const uint64_t LANE_TOPS
    const uint64_t LANE_LOWS
    const uint64_t LANE_ONES
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil


cdef inline int popc(uint32_t x) noexcept nogil:
    return __builtin_popcount(x)


cdef inline int popc64(uint64_t x) noexcept nogil:
    return __builtin_popcountll(x)


cdef inline int lowbit(uint32_t x) noexcept nogil:
    return __builtin_ctz(x)


cdef inline int highbit(uint32_t x) noexcept nogil:
    return 31 - __builtin_clz(x)


cdef inline int lowbit64(uint64_t x) noexcept nogil:
    return __builtin_ctzll(x)


cdef inline int highbit64(uint64_t x) noexcept nogil:
    return 63 - __builtin_clzll(x)


cdef inline uint64_t lane_lows(uint64_t x) noexcept nogil:
    """In a four_suits word: the lowest card of each suit (lane)."""
    return x & ~((x | LANE_TOPS) - LANE_ONES)


cdef inline uint32_t lane_suits(uint64_t x) noexcept nogil:
    """In a four_suits word: the suits (a bit per suit) with a card."""
    return <uint32_t> pext64((x + LANE_LOWS) & LANE_TOPS, LANE_TOPS)


cdef inline uint64_t suit_lanes(uint32_t suits) noexcept nogil:
    """In a four_suits word: every bit of the lanes of the suits `suits`
    (a bit per suit)."""
    return pdep64(suits, LANE_ONES) * 0xFFFF


cdef inline uint64_t lane_run_starts(uint64_t mine, uint64_t pres) noexcept nogil:
    """In four_suits words: the lowest card of every run of the cards
    `mine` among the cards `pres` (mine's included), suit by suit: in
    relative ranks a card starts a run when the card below it in its suit
    is not one of mine (or there is none)."""
    cdef uint64_t x = pext64(mine, pres)
    cdef uint64_t bottoms = pext64(lane_lows(pres), pres)
    return pdep64(x & (~(x << 1) | bottoms), pres)


cdef inline uint32_t present(Ctx* c, int s) noexcept nogil:
    """Cards of suit s still held by anyone."""
    return c.pres[s]


cdef inline int owner(Ctx* c, int s, int b) noexcept nogil:
    cdef int h
    for h in range(4):
        if (c.hand[h][s] >> b) & 1:
            return h
    return -1

