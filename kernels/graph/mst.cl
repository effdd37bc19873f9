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
//   mst_hook      every component root with a lightest edge is hooked under the component at the
//                 edge's other end (parent[]), unless both chose the same edge and it is the
//                 smaller; the hooked root records the edge's entry in the forest list
//   mst_compress  comp[v] = the root of comp[v]'s hook chain (path halving on parent[])
// No work-item waits for another. Traffic per round: the live edges once, with their ends'
// components at random. Entries, ranks and vertices are int (the host refuses 2^31 entries).
#include "primitives/workgroup_append.clh"

#define TILE_FIRST ((long)get_group_id(0) * WG_SIZE)
#define TILE_STRIDE ((long)get_num_groups(0) * WG_SIZE)
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
kernel void mst_lightest(global const int* ranks, const int every_rank, const int count,
                         global const int* rank_src, global const int* rank_dst,
                         global const int* comp, global int* best, global int* next_ranks,
                         volatile global int* counters) {
  local int room[2];
  for (long first = TILE_FIRST; first < count; first += TILE_STRIDE) {
    const long i = first + get_local_id(0);
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
    const int at = wg_append(live, room, &counters[0]);
    if (at >= 0) next_ranks[at] = r;
  }
}

// counters[1]: hooks this round (the forest list's length grows by as many).
kernel void mst_hook(global const int* best, global const int* rank_src, global const int* rank_dst,
                     global const int* rank_entry, global const int* comp, global int* parent,
                     global int* forest, volatile global int* forest_length, const int n,
                     volatile global int* counters) {
  local int room[2];
  for (long first = TILE_FIRST; first < n; first += TILE_STRIDE) {
    const int c = (int)(first + get_local_id(0));
    int hooked = 0, entry = 0;
    if (c < n && comp[c] == c && best[c] != NO_EDGE) {
      const int r = best[c];
      const int cu = comp[rank_src[r]], cv = comp[rank_dst[r]];
      const int d = cu == c ? cv : cu;
      if (best[d] != r || c > d) {
        parent[c] = d;
        hooked = 1;
        entry = rank_entry[r];
      }
    }
    const int at = wg_append(hooked, room, forest_length);
    if (at >= 0) forest[at] = entry;
    wg_count(hooked, room, &counters[1]);
  }
}

kernel void mst_compress(global int* comp, global int* parent, const int n) {
  const int v = get_global_id(0);
  if (v >= n) return;
  int x = comp[v];
  while (parent[x] != x) {
    const int up = parent[parent[x]];
    parent[x] = up;  // path halving: up is an ancestor of x, whatever other items wrote
    x = up;
  }
  comp[v] = x;
}

kernel void identity_order(global int* order, const int count) {
  const int i = get_global_id(0);
  if (i < count) order[i] = i;
}
