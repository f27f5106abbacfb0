/* Plain C port of Clear for Takeoff's hottest rule function, rules.legal_plays (with the
 * helpers it calls: occ, stand_ab, _pay, move_cost, snow_extra_card, step_payment, d_back,
 * runway_frozen, can_join, dly_target_ok, _add), line for line, as the yardstick of
 * `make bench` (sim/games/clear_for_takeoff/yardstick/__init__.py). The layout constants (P_*, H_*, K_*, card ids)
 * come from layout.h, which the bench writes from sim/games/clear_for_takeoff/layout.py.
 * Build: gcc -O2 -shared -fPIC; called through ctypes. */
#include <stdint.h>
#include "layout.h"

typedef int32_t i32;
typedef int64_t i64;

#define OCC(slot) (state[p[P_OFF_OCC] + (slot)])
#define HAND(s, c) (state[p[P_OFF_HAND] + (s) * NCT + (c)])

static inline int stand_ab(const i64 *p, i64 st) { return st < p[P_NST] - p[P_NAC]; }

static inline i64 pay(const i32 *state, const i64 *p, i64 s, i64 card, i64 need) {
    i64 have = HAND(s, card);
    if (have >= need) return 0;
    i64 lc = need - have;
    if (HAND(s, LC) >= lc) return lc;
    return -1;
}

static inline i64 move_cost(const i32 *state, const i64 *p, i64 size) {
    i64 c = p[P_MOVE1 + size - 1];
    if (state[H_WEATHER] == SN) c += 1;
    return c;
}

static i64 snow_extra_card(const i32 *state, const i64 *p, i64 s, i64 card, i64 base, i64 lcb) {
    i64 best = -1, bestn = 0;
    for (i64 t = CA; t <= CD; t++) {
        i64 spare = HAND(s, t);
        if (t == card) spare -= base - lcb;
        if (spare > bestn) { bestn = spare; best = t; }
    }
    if (best >= 0) return best;
    if (HAND(s, LC) - lcb > 0) return LC;
    return -1;
}

static i64 step_payment(const i32 *state, const i64 *p, i64 s, i64 card, i64 size) {
    if (p[P_SNOWANY] == 0 || state[H_WEATHER] != SN)
        return pay(state, p, s, card, move_cost(state, p, size));
    i64 base = p[P_MOVE1 + size - 1];
    i64 lcb = pay(state, p, s, card, base);
    if (lcb < 0) return -1;
    i64 x = snow_extra_card(state, p, s, card, base, lcb);
    if (x < 0) return -1;
    return lcb + (x == LC ? 1 : 0);
}

static inline i64 d_back(const i32 *state, const i64 *p, i64 r) {
    i64 Q = p[P_Q];
    for (i64 j = Q - 1; j >= 0; j--)
        if (OCC(p[P_D0] + r * Q + j) >= 0) return j + 1;
    return 0;
}

static inline int runway_frozen(const i32 *state, i64 r) {
    i64 w = state[H_WEATHER];
    return w == FG || (w == C31L && r == 0) || (w == C31R && r == 1);
}

static inline int can_join(const i32 *state, const i64 *p, i64 r) {
    if (d_back(state, p, r) >= p[P_Q]) return 0;
    return p[P_JOINHELD] == 1 || !runway_frozen(state, r);
}

static inline int dly_target_ok(const i64 *p, i64 slot) { return slot >= 0 && slot <= p[P_VIP2]; }

static inline i64 add(i32 *acts, i64 n, i64 kind, i64 gid, i64 arg, i64 lc) {
    i32 *row = acts + n * ACT_W;
    row[0] = (i32)kind; row[1] = (i32)gid; row[2] = (i32)arg; row[3] = (i32)lc;
    return n + 1;
}

/* state int32[state_size], p int64[NP], fleet int32[S, fleet_cols] (C order), acts
 * int32[max_actions, ACT_W]; returns the number of plays written (rules.legal_plays). */
__attribute__((noinline)) i64 legal_plays(const i32 *state, const i64 *p, const i32 *fleet, i64 fleet_cols,
                                          i32 *acts) {
    i64 S = p[P_S], K = p[P_K];
    i64 s = state[H_CUR];
    i64 n = 0;
    i64 nst = p[P_NST];
    int vip_free = OCC(p[P_VIP1]) < 0 && OCC(p[P_VIP2]) < 0;
    int has_vip = HAND(s, VIP) > 0;
    i64 seen_hangar = 0;
    for (i64 k = 0; k < K; k++) {
        i64 size = fleet[s * fleet_cols + k];
        if (size == 0) continue;
        i64 gid = s * K + k;
        i64 slot = state[p[P_OFF_POS] + s * K + k];
        if (slot == POS_HANGAR) {
            if ((seen_hangar >> size) & 1) continue;
            seen_hangar |= (i64)1 << size;
            i64 lc = step_payment(state, p, s, CA, size);
            if (lc >= 0) {
                for (i64 st = 0; st < nst; st++) {
                    i64 a_sl = 2 * st;
                    if (OCC(a_sl) >= 0) continue;
                    if (!stand_ab(p, st) && OCC(a_sl + 1) >= 0) continue;
                    n = add(acts, n, K_PLACE, gid, st, lc);
                }
            }
            if (has_vip && vip_free) n = add(acts, n, K_VIP, gid, 0, 0);
        } else if (slot >= 0 && slot < 2 * nst) {
            i64 st = slot / 2;
            if (slot % 2 == 0) {
                i64 card = stand_ab(p, st) ? CB : CC;
                if (OCC(slot + 1) < 0) {
                    i64 lc = step_payment(state, p, s, card, size);
                    if (lc >= 0) n = add(acts, n, K_ADVANCE, gid, slot + 1, lc);
                }
            } else {
                i64 lc = step_payment(state, p, s, CD, size);
                if (lc >= 0)
                    for (i64 r = 0; r < 2; r++)
                        if (can_join(state, p, r)) n = add(acts, n, K_TO_D, gid, r, lc);
            }
            if (has_vip && vip_free) n = add(acts, n, K_VIP, gid, 0, 0);
        } else if (slot >= p[P_TO0]) {
            if (state[p[P_OFF_DEICED] + s * K + k] == 0) {
                i64 need = p[P_AI1 + size - 1];
                if (HAND(s, AI) >= need) n = add(acts, n, K_AI, gid, 0, 0);
            }
        }
    }
    for (i64 c = SC; c < SC + NWEATHER; c++)
        if (HAND(s, c) > 0) n = add(acts, n, K_WEATHER, -1, c, 0);
    int has_flr = HAND(s, FLR) > 0;
    int has_dly = HAND(s, DLY) > 0;
    if (has_flr || has_dly) {
        for (i64 o = 0; o < S; o++) {
            if (o == s && p[P_DLYOWN] == 0) continue;
            for (i64 k = 0; k < K; k++) {
                i64 slot = state[p[P_OFF_POS] + o * K + k];
                if (slot < 0) continue;
                if (has_flr && o != s) n = add(acts, n, K_FLR, o * K + k, 0, 0);
                if (has_dly && dly_target_ok(p, slot)) n = add(acts, n, K_DLY, o * K + k, 0, 0);
            }
        }
    }
    return n;
}

/* The timing loop: legal_plays on each of the m states (rows of `states`, int32[m, width])
 * `reps` times; writes the play count of each state to counts[m] and returns the sum of the
 * counts plus the first play's kind (so the calls cannot be dropped). */
i64 time_legal_plays(const i32 *states, i64 m, i64 width, const i64 *p, const i32 *fleet, i64 fleet_cols,
                     i32 *acts, i64 *counts, i64 reps) {
    i64 chk = 0;
    for (i64 r = 0; r < reps; r++)
        for (i64 i = 0; i < m; i++) {
            i64 n = legal_plays(states + i * width, p, fleet, fleet_cols, acts);
            counts[i] = n;
            chk += n + acts[0];
        }
    return chk;
}
