// mst.cl: minimum spanning forests by Borůvka's rounds over edges ranked in a total order
// (lib/graph/minimum_spanning_tree.cpp). The host ranks the matrix's off-diagonal entries by
// (weight, smaller end, larger end, row is the larger end, stored position) with stable radix
// sorts; rank r's ends are rank_src[r], rank_dst[r]. Ranks are distinct, so every component's
// lightest edge is one edge, and the only cycles the choices make are pairs that chose the same
// edge: the larger component of such a pair gives way. The forest is therefore the unique
// minimum spanning forest of that order (the one Kruskal's algorithm finds in it).
//   edge_key      the keys of the order that do not depend on the type: which end is the row,
//                 the larger end, the smaller end
//   mst_lightest  along every listed edge between two components, atomic_min of its rank at both
//                 components; the edge goes on to the next list (edges inside a component are
//                 dropped for good)
//   mst_hook      every component root with a lightest edge is linked to the component at the
//                 edge's other end (union-find, kernels/primitives/union_find.clh), unless both
//                 chose the same edge and it is the smaller; the link records the edge's entry in
//                 the forest list
//   mst_compress  comp[v] = the root of v's set (union-find's flatten)
// The choices of a round form a forest over the components (ranks are distinct, and a pair that
// chose the same edge links once), so every link joins two sets. No work-item waits for another.
// Traffic per round: the live edges once, with their ends' components at random. Entries, ranks
// and vertices are int (the host refuses 2^31 entries).
#include "primitives/append.clh"
#include "primitives/union_find.clh"

#define NO_EDGE INT_MAX

// which: 0 the row is the larger end (0 or 1), 1 the larger end, 2 the smaller end.
kernel void edge_key(global const int* src, global const int* dst, global const int* order,
                     const int count, const int which, global uint* key) {
  const int i = get_global_id(0);
  if (i >= count) return;
  const int e = order[i], u = src[e], v = dst[e];
  key[i] = which == 0 ? (uint)(u > v) : which == 1 ? (uint)max(u, v) : (uint)min(u, v);
}

kernel void mst_start(global int* comp, global int* parent, const int n) {
  const int v = get_global_id(0);
  if (v < n) comp[v] = parent[v] = v;
}

// ranks[0 .. count) are the listed edges (first: every rank, 0 .. count - 1). counters[0]: the
// next list's length.
kernel void mst_lightest(global const int* ranks, const int every_rank, const uint count,
                         global const int* rank_src, global const int* rank_dst,
                         global const int* comp, global int* best, global int* next_ranks,
                         volatile global uint* counters) {
  local wg_append_tile tile;
  WG_TILES(i, count) {
    int live = 0, r = 0;
    if (i < count) {
      r = every_rank ? (int)i : ranks[i];
      const int cu = comp[rank_src[r]], cv = comp[rank_dst[r]];
      if (cu != cv) {
        atomic_min(&best[cu], r);
        atomic_min(&best[cv], r);
        live = 1;
      }
    }
    const uint slot = wg_append(live, &counters[0], &tile);
    if (live) next_ranks[slot] = r;
  }
}

// parent: the union-find forest of the components (roots are the comp[] ids of this round).
// counters[1]: the forest list's length, grown by the round's links.
kernel void mst_hook(global const int* best, global const int* rank_src, global const int* rank_dst,
                     global const int* rank_entry, global const int* comp, global int* parent,
                     global int* forest, const uint n, volatile global uint* counters) {
  local wg_append_tile tile;
  WG_TILES(i, n) {
    const int c = (int)i;
    int linked = 0, entry = 0;
    if (i < n && comp[c] == c && best[c] != NO_EDGE) {
      const int r = best[c];
      const int cu = comp[rank_src[r]], cv = comp[rank_dst[r]];
      const int d = cu == c ? cv : cu;
      if ((best[d] != r || c > d) && uf_hook(parent, c, d).x >= 0) {
        linked = 1;
        entry = rank_entry[r];
      }
    }
    const uint slot = wg_append(linked, &counters[1], &tile);
    if (linked) forest[slot] = entry;
  }
}

kernel void mst_compress(global int* comp, global int* parent, const int n) {
  const int v = get_global_id(0);
  if (v >= n) return;
  uf_flatten(parent, v);
  comp[v] = parent[v];
}

kernel void identity_order(global int* order, const int count) {
  const int i = get_global_id(0);
  if (i < count) order[i] = i;
}
