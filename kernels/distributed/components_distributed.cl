// components_distributed.cl: connected components of a graph split in vertex ranges over the
// ranks, merged in one exchange. A rank's rows are local (vertex u of the rank is global id
// first + u) and their arcs hold global target ids; row offsets are EDGE_T (int while the rank's
// arcs fit, else long), ids int.
//
// Two union-find forests (kernels/primitives/union_find.clh: every pointer to a smaller id, so a
// root is the smallest id of its tree; lock-free linking; finished forests read without writing):
//   local_parent[]   the rank's vertices (local ids), joined by the arcs between them; compressed,
//                    local_parent[u] is the smallest local id of u's local component, and
//                    first + local_parent[u] the component's label
//   global_parent[]  every vertex of the graph (global ids), joined by the cut arcs: a cut arc
//                    u -> w joins u's label with w; w was first pointed at its own label, which its
//                    owner answered (a ghost whose label is itself keeps its bit in ghost_bits)
// Of an undirected graph (both arcs stored, perhaps on two ranks) one arc of each pair is taken,
// picked by the parity of its ends so that cut arcs split about evenly between the two ranks; of a
// directed graph every arc (a component joins whatever an arc joins, whichever way it points).
//
// Rows are walked in three ways (the rows' lengths decide):
//   dcc_rows    one work-item per row of at most SMALL_ROW arcs; with `list`, longer rows are
//               listed: up to TEAM_ROW arcs for a team, longer ones cut in CHUNK-arc pieces
//   dcc_teams   a team of `team` consecutive work-items per listed row (no barrier needed)
//   dcc_chunks  a work-group per listed piece (a Kronecker hub's million arcs spread over groups)
// Pass 0 (local): inside arcs link local_parent, cut arcs mark their far end in ghost_bits.
// Pass 1 (cut): cut arcs link labels in global_parent. Traffic: the rows once per pass, two finds
// per taken arc.

#include "primitives/append.clh"
#include "primitives/csr.clh"
#include "primitives/union_find.clh"

#ifndef SMALL_ROW
#define SMALL_ROW 16
#endif
#ifndef TEAM_ROW
#define TEAM_ROW 512
#endif
#ifndef CHUNK
#define CHUNK 2048
#endif

// One arc u -> w of the rank (u local, w global) in pass `pass` (above); label_u is u's label
// (first + local_parent[u], read once per row) in pass 1.
inline void dcc_arc(int pass, int u, int label_u, int w, int first, uint local_n, int undirected,
                    global int* local_parent, global int* global_parent, global uint* ghost_bits) {
  const int from = first + u;
  if (undirected && ((from ^ w) & 1) != (from < w)) return;  // the reverse arc is taken
  const uint local_w = (uint)(w - first);
  if (local_w < local_n) {
    if (pass == 0) uf_link(local_parent, u, (int)local_w);
  } else if (pass == 0) {
    const uint bit = 1u << (w & 31);
    if (!(ghost_bits[w >> 5] & bit)) atomic_or(&ghost_bits[w >> 5], bit);
  } else {
    uf_link(global_parent, label_u, w);
  }
}

#define DCC_ARC(u, e)                                                                             \
  dcc_arc(pass, (u), label_u, column[e], first, local_n, undirected, local_parent, global_parent, \
          ghost_bits)
// u's label in pass 1 (local_parent is compressed by then)
#define DCC_LABEL(u) (pass == 1 ? first + uf_root(local_parent, (u)) : 0)

__kernel void dcc_identity(global int* parent, uint count) {
  for (uint i = get_global_id(0); i < count; i += get_global_size(0)) parent[i] = (int)i;
}

// counts[0]: rows listed for teams; counts[1]: pieces listed for work-groups.
__kernel void dcc_rows(global const EDGE_T* row_offset, global const int* column, int first,
                       uint local_n, int undirected, int pass, int list, global int* local_parent,
                       global int* global_parent, global uint* ghost_bits, global int* team_rows,
                       global int* chunk_row, global EDGE_T* chunk_first, global uint* counts) {
  for (uint u = get_global_id(0); u < local_n; u += get_global_size(0)) {
    const EDGE_T begin = row_offset[u], end = row_offset[u + 1], arcs = end - begin;
    if (arcs <= SMALL_ROW) {
      const int label_u = arcs > 0 ? DCC_LABEL(u) : 0;
      for (EDGE_T e = begin; e < end; ++e) DCC_ARC((int)u, e);
    } else if (list && arcs <= TEAM_ROW) {
      team_rows[atomic_inc(&counts[0])] = (int)u;
    } else if (list) {
      const uint pieces = (uint)((arcs + CHUNK - 1) / CHUNK);
      const uint at = atomic_add(&counts[1], pieces);
      for (uint k = 0; k < pieces; ++k) {
        chunk_row[at + k] = (int)u;
        chunk_first[at + k] = begin + (EDGE_T)k * CHUNK;
      }
    }
  }
}

__kernel void dcc_teams(global const EDGE_T* row_offset, global const int* column, int first,
                        uint local_n, int undirected, int pass, global int* local_parent,
                        global int* global_parent, global uint* ghost_bits,
                        global const int* team_rows, global const uint* counts, uint team) {
  const uint teams_per_group = get_local_size(0) / team, lane = get_local_id(0) % team;
  const uint rows = counts[0], teams = get_num_groups(0) * teams_per_group;
  if (get_local_id(0) / team >= teams_per_group) return;  // a group's items beyond whole teams
  for (uint i = get_group_id(0) * teams_per_group + get_local_id(0) / team; i < rows; i += teams) {
    const int u = team_rows[i], label_u = DCC_LABEL(u);
    const EDGE_T end = row_offset[u + 1];
    for (EDGE_T e = row_offset[u] + lane; e < end; e += team) DCC_ARC(u, e);
  }
}

__kernel void dcc_chunks(global const EDGE_T* row_offset, global const int* column, int first,
                         uint local_n, int undirected, int pass, global int* local_parent,
                         global int* global_parent, global uint* ghost_bits,
                         global const int* chunk_row, global const EDGE_T* chunk_first,
                         global const uint* counts) {
  const uint pieces = counts[1];
  for (uint c = get_group_id(0); c < pieces; c += get_num_groups(0)) {
    const int u = chunk_row[c], label_u = DCC_LABEL(u);
    const EDGE_T end = min(chunk_first[c] + (EDGE_T)CHUNK, row_offset[u + 1]);
    for (EDGE_T e = chunk_first[c] + (EDGE_T)get_local_id(0); e < end; e += (EDGE_T)get_local_size(0))
      DCC_ARC(u, e);
  }
}

__kernel void dcc_compress(global int* parent, uint count) {
  for (uint i = get_global_id(0); i < count; i += get_global_size(0))
    uf_flatten(parent, (int)i);
}

// The label of each vertex another rank asked for (global ids of this rank's vertices).
__kernel void dcc_answer(global const int* local_parent, global const int* asked, uint count,
                         int first, global int* label) {
  for (uint i = get_global_id(0); i < count; i += get_global_size(0))
    label[i] = first + uf_root(local_parent, asked[i] - first);
}

// Each ghost points at its label; a ghost that is its own label is a root like any label, and
// loses its bit (the bits left mark the ghosts that point elsewhere).
__kernel void dcc_point_ghosts(global int* global_parent, global uint* ghost_bits,
                               global const int* ghost, global const int* label, uint count) {
  for (uint i = get_global_id(0); i < count; i += get_global_size(0)) {
    const int w = ghost[i];
    if (label[i] != w)
      global_parent[w] = label[i];
    else
      atomic_and(&ghost_bits[w >> 5], ~(1u << (w & 31)));
  }
}

// The labels the cut arcs hooked (global_parent[x] != x, x not a ghost pointing at its label),
// each with its root: counted (write 0) or written to joined[] (write 1), a work-group's at a time
// (kernels/primitives/append.clh).
__kernel void dcc_joined(global int* global_parent, global const uint* ghost_bits, uint n,
                         int write, global uint* count, global int2* joined) {
  local wg_append_tile tile;
  WG_TILES(x, n) {
    const bool hooked =
        x < n && global_parent[x] != (int)x && !((ghost_bits[x >> 5] >> (x & 31)) & 1u);
    const uint slot = wg_append(hooked, count, &tile);
    if (hooked && write) joined[slot] = (int2)((int)x, uf_root(global_parent, (int)x));
  }
}

// Every rank's hooked labels linked to their roots (the same pairs on every rank).
__kernel void dcc_link_pairs(global int* global_parent, global const int2* pair, uint count) {
  for (uint i = get_global_id(0); i < count; i += get_global_size(0))
    uf_link(global_parent, pair[i].x, pair[i].y);
}

// The final labels, in place: each vertex's label's root.
__kernel void dcc_final(global int* local_parent, global int* global_parent, int first,
                        uint local_n) {
  for (uint u = get_global_id(0); u < local_n; u += get_global_size(0))
    local_parent[u] = uf_root(global_parent, first + local_parent[u]);  // compressed: a root
}
