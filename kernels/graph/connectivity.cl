// connectivity.cl: connected components by asynchronous union-find (after ECL-CC, Jaiganesh &
// Burtscher 2018, and Afforest, Sutton et al. 2018), recording the hooking edges, which form a
// spanning forest.
//
// parent[] is a union-find forest (kernels/primitives/union_find.clh: pointers to smaller ids,
// lock-free linking, why finished forests are read without writing), so a tree's root is its
// smallest vertex and the final labels are the components' smallest vertices. A successful hook
// joins two different trees, so the edge that made it is a spanning-forest edge: the hooked root
// r records it in hook_source[r] (the end the link came from) and hook[r]: for CSR graphs the
// other end (a vertex, so that no arc index is kept and the arcs may exceed 2^31), for edge lists
// the edge id (the cycle check of root_forest names it). Every root is hooked at most once, so
// these writes never race.
//
// CSR graphs (both directions of every edge stored):
//   cc_init_csr      parent[v] = v's first smaller neighbour (ECL-CC's initialisation: a hook
//                    that needs no atomics, recorded like the others)
//   cc_sample        Afforest: link the k-th arc of every row (a few rounds, then cc_compress)
//   cc_find_giant    one work-group samples 1024 labels; the most frequent, if frequent enough,
//                    is the giant component, whose vertices the hooking pass skips
//   cc_hook_vertices one work-item per vertex for short rows; longer rows go to two work lists:
//   cc_hook_teams    a team of TEAM work-items per row (ECL-CC's warp; OpenCL 1.2 has no
//                    sub-groups, so a team is TEAM consecutive work-items and needs no barrier)
//   cc_hook_groups   a work-group per CHUNK arcs of the longest rows
//   cc_compress      every label becomes its root (ECL-CC's flatten)
// Without a giant component every edge is linked once, from its larger end (arcs u -> v, v < u);
// with one, every vertex outside it links all its arcs (Afforest: an edge between the giant and
// another vertex is seen from the other side).
// Edge lists: cc_init_identity, cc_hook_edges (one work-item per edge), cc_compress, and
// cc_edge_targets (hooking edge ids to their targets, as CSR graphs record them).
// Both: cc_forest packs (hook_source[v], hook_target[v]) into the spanning forest.
// Traffic: the rows once (twice for sampled arcs), two finds per linked arc (random reads of
// parent[], which stays in cache for graphs whose labels fit), one exchange per hook.
// Vertices are int (below 2^31 - 1); CSR arc indices and row offsets are EDGE_T (long beyond
// 2^31 arcs), and nothing per vertex holds an arc index. Edge ids of edge lists are int (below
// 2^30, so that a grid-stride step never overflows).

#include "primitives/append.clh"
#include "primitives/csr.clh"
#include "primitives/union_find.clh"

#ifndef TEAM
#define TEAM 32
#endif
#ifndef SMALL_ROW
#define SMALL_ROW 16  // rows up to this many arcs: one work-item
#endif
#ifndef CHUNK
#define CHUNK (8 * WG_SIZE)  // arcs per work-group task of the longest rows
#endif
#define NO_HOOK INT_MAX  // a component's root: neither a vertex nor an edge id

// Joins the trees of ancestors rv (of the edge's source) and rw (of its other end) through the
// edge named `edge` (its other end, or its id: see above), recording it at the hooked root.
// Returns an ancestor of the source's tree root after the join (ECL-CC carries it to the row's
// next arc).
int cc_union(global int* parent, global int* hook, global int* hook_source, int rv, int rw,
             int edge, int source) {
  const int2 link = uf_hook(parent, rv, rw);  // (hooked root or -1, ancestor of the joined root)
  if (link.x >= 0) {
    hook[link.x] = edge;
    hook_source[link.x] = source;
  }
  return link.y;
}

void cc_link(global int* parent, global int* hook, global int* hook_source, int u, int v,
             int edge) {
  cc_union(parent, hook, hook_source, uf_find(parent, u), uf_find(parent, v), edge, u);
}

kernel void cc_init_csr(global const EDGE_T* row_offset, global const int* column,
                        global int* parent, global int* hook_target, global int* hook_source,
                        const int n) {
  for (int v = get_global_id(0); v < n; v += get_global_size(0)) {
    const EDGE_T end = row_offset[v + 1];
    int up = v;
    for (EDGE_T e = row_offset[v]; e < end; ++e) {
      const int w = column[e];
      if (w < v) {
        up = w;
        break;
      }
    }
    parent[v] = up;
    hook_target[v] = up != v ? up : NO_HOOK;
    hook_source[v] = v;
  }
}

kernel void cc_init_identity(global int* parent, global int* hook_edge, const int n) {
  for (int v = get_global_id(0); v < n; v += get_global_size(0)) {
    parent[v] = v;
    hook_edge[v] = NO_HOOK;
  }
}

// Afforest's sampling round: the k-th arc of every row with more than k arcs.
kernel void cc_sample(global const EDGE_T* row_offset, global const int* column,
                      global int* parent, global int* hook_target, global int* hook_source,
                      const int n, const int k) {
  for (int v = get_global_id(0); v < n; v += get_global_size(0)) {
    const EDGE_T e = row_offset[v] + k;
    if (e < row_offset[v + 1]) {
      const int w = column[e];
      cc_link(parent, hook_target, hook_source, v, w, w);
    }
  }
}

kernel void cc_compress(global int* parent, const int n) {
  for (int v = get_global_id(0); v < n; v += get_global_size(0)) uf_flatten(parent, v);
}

// giant[0] = the most frequent label of 1024 vertices sampled at fixed pseudo-random positions,
// or -1 when it holds fewer than min_count of them (no component large enough to skip).
// One work-group; the labels must be compressed (cc_compress) so that a label is a root.
#define GIANT_SAMPLES 1024
kernel void cc_find_giant(global const int* parent, global int* giant, const int n,
                          const int min_count) {
  local int label[GIANT_SAMPLES];
  local int best;
  const int lid = get_local_id(0);
  if (lid == 0) best = 0;
  for (int i = lid; i < GIANT_SAMPLES; i += WG_SIZE) {
    uint h = (uint)i * 2654435761u + 0x9e3779b9u;  // multiplicative hash: spread positions
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    label[i] = n > 0 ? parent[h % (uint)n] : -1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = lid; i < GIANT_SAMPLES; i += WG_SIZE) {
    int count = 0;
    for (int j = 0; j < GIANT_SAMPLES; ++j) count += label[j] == label[i];
    atomic_max(&best, (count << 10) | i);  // most frequent, then the latest sample
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) giant[0] = (best >> 10) >= min_count ? label[best & (GIANT_SAMPLES - 1)] : -1;
}

// Arc v -> w, past the sampled arcs, is linked here: every arc when v is outside the giant
// component (giant mode), else only arcs to smaller ids (each edge once, from its larger end).
bool cc_takes_arc(int v, int w, bool giant_mode) { return giant_mode || w < v; }

// Links the arcs [first, end) of v's row, `stride` apart from the item's first.
void cc_link_row(global const int* column, global int* parent, global int* hook_target,
                 global int* hook_source, int v, EDGE_T first, EDGE_T end, int stride,
                 bool giant_mode) {
  if (first >= end) return;
  int root = uf_find(parent, v);  // found once per row, carried from arc to arc (as ECL-CC)
  for (EDGE_T e = first; e < end; e += stride) {
    const int w = column[e];
    if (cc_takes_arc(v, w, giant_mode))
      root = cc_union(parent, hook_target, hook_source, root, uf_find(parent, w), w, v);
  }
}

// counters: [0] medium list length, [1] large-chunk list length.
kernel void cc_hook_vertices(global const EDGE_T* row_offset, global const int* column,
                             global int* parent, global int* hook_target,
                             global int* hook_source, global const int* giant,
                             global int* medium, global int* large_vertex,
                             global EDGE_T* large_first, volatile global int* counters,
                             const int n, const int sampled) {
  const int giant_label = giant[0];
  const bool giant_mode = giant_label >= 0;
  for (int v = get_global_id(0); v < n; v += get_global_size(0)) {
    if (giant_mode && parent[v] == giant_label) continue;  // Afforest: in the giant, skip
    const EDGE_T first = row_offset[v] + sampled, end = row_offset[v + 1];
    if (first >= end) continue;
    const EDGE_T length = end - first;
    if (length <= SMALL_ROW) {
      cc_link_row(column, parent, hook_target, hook_source, v, first, end, 1, giant_mode);
    } else if (length <= 11 * TEAM) {
      medium[atomic_inc(&counters[0])] = v;
    } else {
      const int chunks = (int)((length + CHUNK - 1) / CHUNK);
      const int at = atomic_add(&counters[1], chunks);
      for (int c = 0; c < chunks; ++c) {
        large_vertex[at + c] = v;
        large_first[at + c] = first + (EDGE_T)c * CHUNK;
      }
    }
  }
}

// Medium rows: team t (TEAM consecutive work-items) takes rows t, t + teams, ...
kernel void cc_hook_teams(global const EDGE_T* row_offset, global const int* column,
                          global int* parent, global int* hook_target,
                          global int* hook_source, global const int* giant,
                          global const int* medium, global const int* counters,
                          const int sampled) {
  const bool giant_mode = giant[0] >= 0;
  const int count = counters[0];
  const int lane = get_global_id(0) % TEAM, teams = get_global_size(0) / TEAM;
  for (int i = get_global_id(0) / TEAM; i < count; i += teams) {
    const int v = medium[i];
    cc_link_row(column, parent, hook_target, hook_source, v, row_offset[v] + sampled + lane,
                row_offset[v + 1], TEAM, giant_mode);
  }
}

// Chunks of the longest rows: a work-group per chunk of CHUNK arcs.
kernel void cc_hook_groups(global const EDGE_T* row_offset, global const int* column,
                           global int* parent, global int* hook_target,
                           global int* hook_source, global const int* giant,
                           global const int* large_vertex, global const EDGE_T* large_first,
                           global const int* counters) {
  const bool giant_mode = giant[0] >= 0;
  const int count = counters[1];
  for (int i = get_group_id(0); i < count; i += get_num_groups(0)) {
    const int v = large_vertex[i];
    const EDGE_T first = large_first[i];
    const EDGE_T end = min(first + (EDGE_T)CHUNK, row_offset[v + 1]);
    cc_link_row(column, parent, hook_target, hook_source, v, first + get_local_id(0), end, WG_SIZE,
                giant_mode);
  }
}

kernel void cc_hook_edges(global const int* source, global const int* target,
                          global int* parent, global int* hook_edge,
                          global int* hook_source, const int edges) {
  for (int e = get_global_id(0); e < edges; e += get_global_size(0))
    cc_link(parent, hook_edge, hook_source, source[e], target[e], e);
}

// Edge lists: the hooking edge ids become their targets, the record CSR graphs keep.
kernel void cc_edge_targets(global const int* hook_edge, global const int* target,
                            global int* hook_target, const int n) {
  const int v = get_global_id(0);
  if (v >= n) return;
  const int e = hook_edge[v];
  hook_target[v] = e != NO_HOOK ? target[e] : NO_HOOK;
}

// The spanning forest as an edge list (hook_source[v], hook_target[v]) for every hooked v, in no
// particular order, appended a work-group at a time (kernels/primitives/append.clh).
kernel void cc_forest(global const int* hook_target, global const int* hook_source,
                      global int* forest_source, global int* forest_target,
                      volatile global uint* count, const int n) {
  local wg_append_tile tile;
  const int v = get_global_id(0);
  const int w = v < n ? hook_target[v] : NO_HOOK;
  const uint slot = wg_append(w != NO_HOOK, count, &tile);
  if (w == NO_HOOK) return;
  forest_source[slot] = hook_source[v];
  forest_target[slot] = w;
}

// For error messages: the smallest edge id that is not a hooking edge (it closes a cycle).
kernel void cc_mark_hooking(global const int* hook_edge, global char* used, const int n) {
  int v = get_global_id(0);
  if (v < n && hook_edge[v] != NO_HOOK) used[hook_edge[v]] = 1;
}

kernel void cc_first_unused(global const char* used, volatile global int* first, const int edges) {
  int e = get_global_id(0);
  if (e < edges && !used[e]) atomic_min(first, e);
}

// Source vertex of every arc of a CSR graph: binary search in row_offset (once per graph).
kernel void cc_arc_sources(global const EDGE_T* row_offset, global int* source, const int n,
                           const int arcs) {
  int a = get_global_id(0);
  if (a >= arcs) return;
  int low = 0, high = n - 1;  // the last v with row_offset[v] <= a
  while (low < high) {
    int mid = low + (high - low + 1) / 2;
    if (row_offset[mid] <= (EDGE_T)a) low = mid;
    else high = mid - 1;
  }
  source[a] = low;
}
