// tour.cl: utilities over the Euler tour (vector tree representation).
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
