// tour.cl: the Euler tour (vector tree representation) of a rooted forest, on the device.
//   tour_keys .. tour_positions: open/close positions exactly as the host's build_euler_tour:
//   vertex v contributes the events open(v) = 2v and close(v) = 2v+1; children are sorted by
//   (parent, id) with the roots as children of a virtual vertex n; then succ(open v) =
//   open(first child) or close(v), succ(close v) = open(next sibling) or close(parent), and the
//   ranks of the single list of 2n events (primitives/listrank.cl) are the positions. int
//   indices (2n < 2^31), one pass each, no atomics.
//   tour_map_build: the inverse of (open_pos, close_pos): tour_vertex[open_pos[v]] = v and
//   tour_vertex[close_pos[v]] = ~v (negative marks a close). Built once per tree; it lets the fused
//   treefix gather weights in tour order instead of scattering them (reads coalesce on the map).
#ifndef POS_T
#define POS_T int
#endif
#ifdef WIDE_INDEX
typedef ulong idx_t;
#else
typedef uint idx_t;
#endif

kernel void tour_map_build(global const POS_T* open_pos, global const POS_T* close_pos,
                           const idx_t n, global int* tour_vertex) {
  const idx_t v = get_global_id(0);
  if (v >= n) return;
  tour_vertex[open_pos[v]] = (int)v;
  tour_vertex[close_pos[v]] = ~(int)v;
}

kernel void tour_keys(global const int* parent, global uint* key, global int* child, const int n) {
  int v = get_global_id(0);
  if (v >= n) return;
  key[v] = parent[v] < 0 ? (uint)n : (uint)parent[v];
  child[v] = v;
}

kernel void tour_links(global const uint* key, global const int* child, global int* first_child,
                     global int* next_sibling, const int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  uint p = key[i];
  next_sibling[child[i]] = (i + 1 < n && key[i + 1] == p) ? child[i + 1] : -1;
  if (i == 0 || key[i - 1] != p) first_child[p] = child[i];
}

kernel void tour_successor(global const int* parent, global const int* first_child,
                         global const int* next_sibling, global int* succ, const int n) {
  int v = get_global_id(0);
  if (v >= n) return;
  int child = first_child[v], sibling = next_sibling[v], up = parent[v];
  succ[2 * v] = child >= 0 ? 2 * child : 2 * v + 1;
  succ[2 * v + 1] = sibling >= 0 ? 2 * sibling : (up >= 0 ? 2 * up + 1 : -1);
}

kernel void tour_positions(global const int* rank, global int* open_pos, global int* close_pos,
                         const int n) {
  int v = get_global_id(0);
  if (v >= n) return;
  open_pos[v] = rank[2 * v];
  close_pos[v] = rank[2 * v + 1];
}
