// Schedule arithmetic shared by the collectives' worker kernels and their
// host launchers (tt-metal keeps such code in "shared_with_host" headers):
// which chunks of a block a worker unit moves, which blocks reach a chip from
// which direction, and in what order. Host and kernel compute message counts
// and orders with the same functions, so they cannot disagree. (The golden
// reference in golden/ deliberately shares none of this.)
//
// Vocabulary:
//   rank / position  index of a chip in the collective's chip order (0..n-1)
//   direction        0: towards higher positions (wrapping on a ring),
//                    1: towards lower positions
//   block            the pages one origin contributes (all-gather, broadcast),
//                    one fracture (reduce-scatter) or one (src, dst) pair
//                    (all-to-all); B pages
//   range            the pages of every block a unit moves: all B, or one
//                    half (bidirectional ring pair: first ceil(B/2) pages
//                    one way, the rest the other way)
//   chunk            up to M pages of a range moved as one EDM message;
//                    chunk c holds pages [c*M, min((c+1)*M, R)) of the range
//   unit             one worker (pair) on one link; unit u moves the chunks
//                    first, first + stride, ... of every block it handles
#pragma once

#include <algorithm>
#include <cstdint>

namespace cclsim::ccl {

// ---- chunks ------------------------------------------------------------------

inline std::uint32_t num_chunks(std::uint32_t block_pages, std::uint32_t pages_per_chunk) {
    return (block_pages + pages_per_chunk - 1) / pages_per_chunk;
}
/// How many of the `chunks` chunks a unit (first, first + stride, ...) moves.
inline std::uint32_t unit_chunk_count(std::uint32_t chunks, std::uint32_t first, std::uint32_t stride) {
    return first < chunks ? (chunks - 1 - first) / stride + 1 : 0;
}
inline std::uint32_t chunk_first_page(std::uint32_t chunk, std::uint32_t pages_per_chunk) {
    return chunk * pages_per_chunk;
}
inline std::uint32_t chunk_pages(std::uint32_t chunk, std::uint32_t block_pages, std::uint32_t pages_per_chunk) {
    const std::uint32_t first = chunk * pages_per_chunk;
    return first >= block_pages ? 0 : (block_pages - first < pages_per_chunk ? block_pages - first : pages_per_chunk);
}

// ---- positions -----------------------------------------------------------------

/// Sign of a direction: +1 for 0, -1 for 1.
inline int dir_sign(std::uint32_t dir) {
    return dir == 0 ? 1 : -1;
}

/// The position `k` hops from `pos` against direction `dir` (where blocks
/// arriving from that direction come from); -1 off the end of a line.
inline int upstream(std::uint32_t pos, std::uint32_t k, std::uint32_t dir, std::uint32_t n, bool ring) {
    const int p = int(pos) - dir_sign(dir) * int(k);
    if (ring) return ((p % int(n)) + int(n)) % int(n);
    return p >= 0 && p < int(n) ? p : -1;
}
/// The position `k` hops from `pos` along direction `dir`; -1 off the end of a line.
inline int downstream(std::uint32_t pos, std::uint32_t k, std::uint32_t dir, std::uint32_t n, bool ring) {
    return upstream(pos, k, 1 - dir, n, ring);
}

// ---- gather-style streams (all-gather, broadcast) -------------------------------
//
// Every origin's block travels `reach` hops in a direction; each chip on the
// way stores it and forwards it unless it is the last. A chip receives the
// blocks of origins 1, 2, ... hops upstream in that order, and sends its own
// block first, then forwards what it received in the order received.

struct GatherPlan {
    std::uint32_t ranks = 0;
    bool ring = true;
    /// Hops an origin's block travels per direction on a ring (0: direction unused).
    std::uint32_t ring_reach[2] = {0, 0};
    /// Only this origin sends (broadcast); -1: every position is an origin.
    std::int32_t root = -1;

    /// Hops origin `q`'s block travels in direction `dir`.
    std::uint32_t reach(std::uint32_t q, std::uint32_t dir) const {
        if (root >= 0 && std::int32_t(q) != root) return 0;
        if (ring) return ring_reach[dir];
        return dir == 0 ? ranks - 1 - q : q;  // a line: to its end
    }
    /// Does the block of the origin `k` hops upstream reach `pos`?
    bool receives(std::uint32_t pos, std::uint32_t k, std::uint32_t dir) const {
        const int q = upstream(pos, k, dir, ranks, ring);
        return q >= 0 && k >= 1 && k < ranks && reach(std::uint32_t(q), dir) >= k;
    }
    /// ... and does `pos` forward it?
    bool forwards(std::uint32_t pos, std::uint32_t k, std::uint32_t dir) const {
        return receives(pos, k, dir) && reach(std::uint32_t(upstream(pos, k, dir, ranks, ring)), dir) > k;
    }
    bool sends_own(std::uint32_t pos, std::uint32_t dir) const { return reach(pos, dir) >= 1; }

    std::uint32_t blocks_received(std::uint32_t pos, std::uint32_t dir) const {
        std::uint32_t n = 0;
        for (std::uint32_t k = 1; k < ranks; ++k) n += receives(pos, k, dir) ? 1 : 0;
        return n;
    }
    std::uint32_t blocks_sent(std::uint32_t pos, std::uint32_t dir) const {
        std::uint32_t n = sends_own(pos, dir) ? 1 : 0;
        for (std::uint32_t k = 1; k < ranks; ++k) n += forwards(pos, k, dir) ? 1 : 0;
        return n;
    }
};

// ---- all-to-all streams -----------------------------------------------------------
//
// Block (src -> dst) travels from src to dst in one direction, relayed by the
// chips in between. In round k = 1, 2, ... a chip sends its own block for the
// chip k hops downstream, then relays the round-k blocks of the chips 1..k-1
// hops upstream (which arrive in the same round, in that order); a receiver
// stores the round-k block whose destination it is and relays the others.

struct AllToAllPlan {
    std::uint32_t ranks = 0;
    bool ring = true;
    /// On a ring: blocks whose downstream distance (direction 0) is at most
    /// this go in direction 0, the others in direction 1.
    std::uint32_t ring_split = 0;

    /// Distance of dst from src along `dir`, or 0 if the block does not go that way.
    std::uint32_t distance(std::uint32_t src, std::uint32_t dst, std::uint32_t dir) const {
        if (src == dst) return 0;
        if (!ring) {
            if (dir == 0) return dst > src ? dst - src : 0;
            return dst < src ? src - dst : 0;
        }
        const std::uint32_t fwd = (dst + ranks - src) % ranks;
        if (fwd <= ring_split) return dir == 0 ? fwd : 0;
        return dir == 1 ? ranks - fwd : 0;
    }

    /// Visit the items `pos` sends in direction `dir` in order:
    /// f(round, src, dst, is_own).
    template <class F> void for_each_sent(std::uint32_t pos, std::uint32_t dir, F&& f) const {
        for (std::uint32_t k = 1; k < ranks; ++k) {
            for (std::uint32_t j = 0; j < k; ++j) {
                const int src = upstream(pos, j, dir, ranks, ring);
                if (src < 0) continue;
                const int dst = downstream(std::uint32_t(src), k, dir, ranks, ring);
                if (dst < 0 || distance(std::uint32_t(src), std::uint32_t(dst), dir) != k) continue;
                f(k, std::uint32_t(src), std::uint32_t(dst), j == 0);
            }
        }
    }
    /// Visit the items `pos` receives from direction `dir` in order:
    /// f(round, src, dst, stored_here).
    template <class F> void for_each_received(std::uint32_t pos, std::uint32_t dir, F&& f) const {
        for (std::uint32_t k = 1; k < ranks; ++k) {
            for (std::uint32_t j = 1; j <= k; ++j) {
                const int src = upstream(pos, j, dir, ranks, ring);
                if (src < 0) continue;
                const int dst = downstream(std::uint32_t(src), k, dir, ranks, ring);
                if (dst < 0 || distance(std::uint32_t(src), std::uint32_t(dst), dir) != k) continue;
                f(k, std::uint32_t(src), std::uint32_t(dst), std::uint32_t(dst) == pos);
            }
        }
    }
    std::uint32_t items_sent(std::uint32_t pos, std::uint32_t dir) const {
        std::uint32_t n = 0;
        for_each_sent(pos, dir, [&](std::uint32_t, std::uint32_t, std::uint32_t, bool) { ++n; });
        return n;
    }
    std::uint32_t items_received(std::uint32_t pos, std::uint32_t dir) const {
        std::uint32_t n = 0;
        for_each_received(pos, dir, [&](std::uint32_t, std::uint32_t, std::uint32_t, bool) { ++n; });
        return n;
    }
    std::uint32_t relays(std::uint32_t pos, std::uint32_t dir) const {
        std::uint32_t n = 0;
        for_each_received(pos, dir, [&](std::uint32_t, std::uint32_t, std::uint32_t, bool here) { n += here ? 0 : 1; });
        return n;
    }
};

// ---- reduce-scatter streams ----------------------------------------------------------
//
// The partial of fracture f in direction 0 collects the chips left of f
// (towards lower positions) and moves right, ending on f; in direction 1 it
// collects the chips right of f and moves left. `reach(f, dir)` is how many
// chips it collects: on a ring a constant per direction (clockwise n-1 / 0,
// anticlockwise 0 / n-1, meet in the middle ceil((n-1)/2) / floor((n-1)/2)),
// on a line everything up to the end (f / n-1-f). The partial starts on the
// chip `reach` positions upstream with that chip's own data.
//
//   out_f = ((L_f (+) g(x_f)) (+) R_f)      L_f: direction 0, R_f: direction 1
//
// When both sides exist the direction-0 mover of chip f computes T = L_f (+)
// g(x_f), commits it to the output and hands it to the direction-1 mover,
// which adds R_f and stores out_f; with one side, that side's mover stores.
//
// A mover of `pos` visits the fractures whose partial passes it, farthest
// destination first: distance reach, reach-1, ..., 0 (0 = its own fracture).
// Its first visit starts a partial (sends without receiving), so a ring of
// movers never waits on itself; its neighbour downstream receives the
// partials in the order it sends them. (Clockwise on a ring this is the CCL
// guide's ring reduce-scatter: chip p sends fracture p-1 first.)

struct ReducePlan {
    std::uint32_t ranks = 0;
    bool ring = true;
    std::uint32_t ring_reach[2] = {0, 0};

    std::uint32_t reach(std::uint32_t f, std::uint32_t dir) const {
        if (ring) return ring_reach[dir];
        return dir == 0 ? f : ranks - 1 - f;
    }
    /// Both sides exist: the direction-0 mover hands T to the direction-1 mover.
    bool handoff(std::uint32_t f) const { return reach(f, 0) > 0 && reach(f, 1) > 0; }
    /// The mover that stores out_f.
    std::uint32_t finisher(std::uint32_t f) const { return reach(f, 1) > 0 ? 1 : 0; }

    /// Visit the steps of `pos`'s mover in direction `dir` in order:
    /// f(fracture, starts (no incoming partial), own (f == pos)).
    template <class F> void for_each_step(std::uint32_t pos, std::uint32_t dir, F&& fn) const {
        const std::uint32_t max = ring ? ring_reach[dir] : ranks - 1;
        for (std::uint32_t d = max + 1; d-- > 0;) {
            const int f = downstream(pos, d, dir, ranks, ring);
            if (f < 0) continue;
            const std::uint32_t r = reach(std::uint32_t(f), dir);
            if (r == 0 || d > r) continue;
            fn(std::uint32_t(f), d == r, d == 0);
        }
    }
    std::uint32_t sends(std::uint32_t pos, std::uint32_t dir) const {
        std::uint32_t n = 0;
        for_each_step(pos, dir, [&](std::uint32_t, bool, bool own) { n += own ? 0 : 1; });
        return n;
    }
    std::uint32_t recvs(std::uint32_t pos, std::uint32_t dir) const {
        std::uint32_t n = 0;
        for_each_step(pos, dir, [&](std::uint32_t, bool starts, bool) { n += starts ? 0 : 1; });
        return n;
    }
};

/// Semaphore increments a --impl fabric writer sends for one step of
/// `pages` pages: one per `sync_pages` (0: one per step), at least one. The
/// receiving reader expects the same count (host and kernel share this).
inline std::uint32_t ring_syncs(std::uint32_t pages, std::uint32_t sync_pages) {
    if (sync_pages == 0) return 1;
    return std::max<std::uint32_t>(1, (pages + sync_pages - 1) / sync_pages);
}

/// The pages of a block one direction of a --impl fabric worker moves, in
/// order: its range [first, first + count), or with `split` (ring
/// reduce-scatter, tt-metal reduce_scatter_minimal_async) every other chunk
/// of it: the direction that takes the first chunk takes min(rest / 2, G)
/// pages, the other min(rest, G), alternating until the range is used up.
template <class F> void for_each_ring_page(std::uint32_t first, std::uint32_t count, bool split, bool takes_first,
                                           std::uint32_t G, F&& f) {
    if (!split) {
        for (std::uint32_t p = 0; p < count; ++p) f(first + p);
        return;
    }
    std::uint32_t at = 0;
    bool mine = takes_first;
    bool firstTurn = true;
    while (at < count) {
        const std::uint32_t rest = count - at;
        const std::uint32_t take = firstTurn ? std::min(rest / 2, G) : std::min(rest, G);
        if (mine)
            for (std::uint32_t p = 0; p < take; ++p) f(first + at + p);
        at += take;
        mine = !mine;
        firstTurn = !firstTurn;
    }
}

/// Where page `page` of origin `origin`'s block lands in a gathered tensor:
/// dim 0 concatenates whole blocks; with `row_pages` > 0 (dim 1) the tensor
/// has rows of `row_pages` pages per origin and the output rows interleave
/// the origins' rows.
inline std::uint32_t gathered_page(std::uint32_t origin, std::uint32_t page, std::uint32_t ranks,
                                   std::uint32_t block_pages, std::uint32_t row_pages) {
    if (row_pages == 0) return origin * block_pages + page;
    return (page / row_pages) * (ranks * row_pages) + origin * row_pages + page % row_pages;
}

}  // namespace cclsim::ccl
