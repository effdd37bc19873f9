// tour.cl: the Euler tour (vector tree representation) of a rooted forest, on the device, with the
// parent array validated on the way (include/treefix/treefix/euler_tour.hpp).
//   tour_keys:      sort keys (the parent; n for a root, a child of a virtual vertex n), and the
//                   smallest vertex whose parent is out of range (atomic_min into `bad`).
//   (host: stable radix sort of the keys; the children come out grouped by parent, in id order)
//   tour_links:     first child and next sibling of every vertex, and the number of children
//                   of every parent (an exclusive scan of those makes the CSR offsets).
//   tour_successor: vertex v contributes the events open(v) = 2v and close(v) = 2v+1;
//                   succ(open v) = open(first child) or close(v), succ(close v) = open(next
//                   sibling) or close(parent); the last root's close ends the single list.
//   (host: list ranking of the 2n events, primitives/listrank.cl)
//   tour_check:     the list is whole when its end has rank 2n - 1: every event is on the list
//                   from the first root. A cycle's events form closed loops off that list (every
//                   one of its vertices has a parent), so a forest with a cycle fails here.
//   tour_positions: open_pos / close_pos from the ranks.
//   tour_map_build: the inverse of (open_pos, close_pos): tour_vertex[open_pos[v]] = v and
//                   tour_vertex[close_pos[v]] = ~v (negative marks a close), which the fused
//                   treefix reads in tour order.
// int indices (2n < 2^31) except in tour_map_build (POS_T positions, idx_t count). One pass each.
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

kernel void tour_keys(global const int* parent, global uint* key, const int n,
                      volatile global int* bad) {
  const int v = get_global_id(0);
  if (v >= n) return;
  const int p = parent[v];
  if (p < -1 || p >= n) {
    atomic_min(bad, v);
    key[v] = (uint)n;  // any in-range key: the host stops after this pass
  } else {
    key[v] = p < 0 ? (uint)n : (uint)p;
  }
}

// child_count[p] = the length of p's run of children: its first and its last child each add
// their end of the run (two atomics per parent; integer sums, so the result is deterministic).
kernel void tour_links(global const uint* key, global const int* child, global int* first_child,
                       global int* next_sibling, volatile global int* child_count, const int n) {
  const int i = get_global_id(0);
  if (i >= n) return;
  const uint p = key[i];
  const bool last = i + 1 == n || key[i + 1] != p;
  next_sibling[child[i]] = last ? -1 : child[i + 1];
  if (i == 0 || key[i - 1] != p) {
    first_child[p] = child[i];
    atomic_sub(&child_count[p], i);
  }
  if (last) atomic_add(&child_count[p], i + 1);
}

kernel void tour_successor(global const int* parent, global const int* first_child,
                           global const int* next_sibling, global int* succ, const int n) {
  const int v = get_global_id(0);
  if (v >= n) return;
  const int child = first_child[v], sibling = next_sibling[v], up = parent[v];
  succ[2 * v] = child >= 0 ? 2 * child : 2 * v + 1;
  succ[2 * v + 1] = sibling >= 0 ? 2 * sibling : (up >= 0 ? 2 * up + 1 : -1);
}

// whole[0] = 1 when the list's end (the only event without a successor) has rank 2n - 1.
kernel void tour_check(global const int* succ, global const int* rank, const int events,
                       global int* whole) {
  const int e = get_global_id(0);
  if (e >= events) return;
  if (succ[e] < 0 && rank[e] == events - 1) whole[0] = 1;
}

kernel void tour_positions(global const int* rank, global int* open_pos, global int* close_pos,
                           const int n) {
  const int v = get_global_id(0);
  if (v >= n) return;
  open_pos[v] = rank[2 * v];
  close_pos[v] = rank[2 * v + 1];
}
