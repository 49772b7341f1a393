/* SplitMix64 (Steele, Lea, Flood 2014), exactly as
 * thegame.models.seeds.SplitMix64: the generator of the compiled playouts
 * that must draw what their Python references draw (the 6 nimmt! playouts,
 * the duel engine's playouts). Static inline: each extension is compiled
 * on its own. */
#ifndef THEGAME_SPLITMIX_H
#define THEGAME_SPLITMIX_H

#include <stdint.h>

static inline uint64_t sm_next(uint64_t *state) {
    *state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in 0..n-1 by rejection: accept x < 2^64 - (2^64 mod n). */
static inline int sm_below(uint64_t *state, int n) {
    uint64_t un = (uint64_t)n;
    uint64_t rem = (0 - un) % un; /* 2^64 mod n */
    for (;;) {
        uint64_t x = sm_next(state);
        if (rem == 0 || x < (uint64_t)0 - rem) return (int)(x % un);
    }
}

/* SplitMix64.shuffle: Fisher-Yates from the back */
static inline void sm_shuffle(uint64_t *state, int *items, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = sm_below(state, i + 1);
        int t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

#endif
