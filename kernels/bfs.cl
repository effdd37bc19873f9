// bfs.cl: level-synchronous breadth-first search on a CSR graph (after Merrill, Garland and
// Grimshaw, "Scalable GPU graph traversal") and the level sweeps of the level-synchronous treefix.
//
// BFS. The queue holds every discovered vertex once, level after level; level L is a slice
// [begin, begin + count) of it, and the vertices discovered while expanding it are appended. Per
// level each vertex of the slice gathers its row:
//   - rows shorter than WG_SIZE: fine-grained gather; a work-group scans the row lengths of its
//     tile in local memory and each work-item then takes one edge of the tile's concatenated rows
//     (binary search of the scan for the owning row), so a tile costs ceil(edges / WG_SIZE)
//     rounds whatever the mix of lengths;
//   - rows of WG_SIZE .. huge_degree-1 edges: the whole work-group sweeps the row, one row at a
//     time (work-items of the tile take turns owning the group);
//   - rows of huge_degree edges or more: skipped here, and swept by bfs_expand_huge with every
//     work-group of the launch, so a vertex with 10^6 neighbours keeps the whole device busy.
// A neighbour is claimed by atomic_cmpxchg on its depth (-1 -> depth + 1); the winner writes its
// parent, so every parent is a neighbour one level up. New vertices are gathered in local memory
// and appended with one global atomic per work-group round. Traffic per level: the slice, its
// row offsets, its edges' columns and depths, and the new vertices.
// Assumptions: none about execution order between work-groups; vertex ids and queue positions
// fit in int; row offsets are EDGE_T (int or long, chosen by the host).
//
// Level sweeps (compiled when VALUE_T is defined, with value_op_options): rootfix over one level
// slice of the BFS order of a forest (read the parent's result, one write), and leaffix of one
// level from its children's results (child CSR), load-balanced the same three ways.

#ifndef EDGE_T
#define EDGE_T int
#endif

// --- work-group helpers ---------------------------------------------------------------------

// Exclusive prefix sum of one int per work-item; `total` receives the sum. On return scratch[k]
// holds the inclusive sum of items 0..k (the fine-grained gather searches it).
int wg_exclusive_scan_int(int x, local int* scratch, int* total) {
  const int lid = get_local_id(0);
  scratch[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int offset = 1; offset < WG_SIZE; offset <<= 1) {
    int y = lid >= offset ? scratch[lid - offset] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    scratch[lid] += y;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  int inclusive = scratch[lid];
  *total = scratch[WG_SIZE - 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  return inclusive - x;
}

// The item k of the tile that owns `rank` of the concatenated rows: the first k whose inclusive
// sum exceeds rank.
int owner_of_rank(local const int* inclusive, int rank) {
  int lo = 0, hi = WG_SIZE - 1;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (inclusive[mid] > rank) hi = mid; else lo = mid + 1;
  }
  return lo;
}

// --- BFS ------------------------------------------------------------------------------------

// True for exactly one caller per vertex u: the one that moves depth[u] from -1 to next_depth.
bool claim(global int* depth, global int* parent, int u, int v, int next_depth) {
  if (depth[u] != -1) return false;  // cheap filter; the atomic decides
  if (atomic_cmpxchg(depth + u, -1, next_depth) != -1) return false;
  parent[u] = v;
  return true;
}

// Appends the vertices found by the work-group (u where found) to the queue with one global
// atomic; those with huge rows also go to the huge list. Called by every work-item of the group.
// counters[0] = queue length, counters[1] = huge list length.
void append_found(bool found, int u, global int* queue, global int* counters, global int* huge,
                  global const EDGE_T* row_offset, EDGE_T huge_degree, local int* items,
                  local int* block) {
  const int lid = get_local_id(0);
  if (lid == 0) block[0] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (found) items[atomic_inc(block)] = u;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int count = block[0];
  if (lid == 0 && count > 0) block[1] = atomic_add(counters, count);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < count) {
    int w = items[lid];
    queue[block[1] + lid] = w;
    if (row_offset[w + 1] - row_offset[w] >= huge_degree) huge[atomic_inc(counters + 1)] = w;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

kernel void bfs_reset(global int* depth, global int* parent, int n) {
  for (int v = get_global_id(0); v < n; v += get_global_size(0)) {
    depth[v] = -1;
    parent[v] = -1;
  }
}

// queue[0..count) holds the (distinct) sources; counters = {count, 0} on entry.
kernel void bfs_sources(global const EDGE_T* row_offset, global int* depth, global const int* queue,
                        int count, global int* counters, global int* huge, EDGE_T huge_degree) {
  int i = get_global_id(0);
  if (i >= count) return;
  int s = queue[i];
  depth[s] = 0;
  if (row_offset[s + 1] - row_offset[s] >= huge_degree) huge[atomic_inc(counters + 1)] = s;
}

kernel void bfs_expand(global const EDGE_T* row_offset, global const int* column,
                       global int* depth, global int* parent, global int* queue, int begin,
                       int count, global int* counters, global int* huge, EDGE_T huge_degree,
                       int next_depth) {
  local int scratch[WG_SIZE];
  local int items[WG_SIZE];
  local int block[2];
  local EDGE_T row_begin[WG_SIZE];
  local int row_vertex[WG_SIZE];
  local int big_owner;
  local EDGE_T big_begin, big_end;
  local int big_vertex;
  const int lid = get_local_id(0);
  const int tiles = (count + WG_SIZE - 1) / WG_SIZE;

  for (int tile = get_group_id(0); tile < tiles; tile += get_num_groups(0)) {
    const int i = tile * WG_SIZE + lid;
    int v = -1;
    EDGE_T first = 0, degree = 0;
    if (i < count) {
      v = queue[begin + i];
      first = row_offset[v];
      degree = row_offset[v + 1] - first;
    }
    // Rows of WG_SIZE .. huge_degree-1 edges: the group sweeps them one at a time.
    bool big = v >= 0 && degree >= WG_SIZE && degree < huge_degree;
    for (;;) {
      if (lid == 0) big_owner = -1;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (big) atomic_max(&big_owner, lid);
      barrier(CLK_LOCAL_MEM_FENCE);
      const int owner = big_owner;
      if (lid == owner) {
        big_begin = first;
        big_end = first + degree;
        big_vertex = v;
        big = false;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      if (owner < 0) break;
      for (EDGE_T base = big_begin; base < big_end; base += WG_SIZE) {
        EDGE_T e = base + lid;
        bool found = false;
        int u = -1;
        if (e < big_end) {
          u = column[e];
          found = claim(depth, parent, u, big_vertex, next_depth);
        }
        append_found(found, u, queue, counters, huge, row_offset, huge_degree, items, block);
      }
    }

    // Rows shorter than WG_SIZE: fine-grained gather over the tile's concatenated rows.
    int small = (v >= 0 && degree < WG_SIZE && degree < huge_degree) ? (int)degree : 0;
    int total;
    wg_exclusive_scan_int(small, scratch, &total);
    row_begin[lid] = first;
    row_vertex[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int base = 0; base < total; base += WG_SIZE) {
      const int rank = base + lid;
      bool found = false;
      int u = -1;
      if (rank < total) {
        int k = owner_of_rank(scratch, rank);
        int before = k > 0 ? scratch[k - 1] : 0;
        u = column[row_begin[k] + (rank - before)];
        found = claim(depth, parent, u, row_vertex[k], next_depth);
      }
      append_found(found, u, queue, counters, huge, row_offset, huge_degree, items, block);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// Rows of huge_degree edges or more, huge[first .. first + count): every work-group of the
// launch takes a strided share of each row.
kernel void bfs_expand_huge(global const EDGE_T* row_offset, global const int* column,
                            global int* depth, global int* parent, global int* queue,
                            global int* counters, global int* huge, int huge_first, int huge_count,
                            EDGE_T huge_degree, int next_depth) {
  local int items[WG_SIZE];
  local int block[2];
  const int lid = get_local_id(0);
  for (int h = 0; h < huge_count; ++h) {
    const int v = huge[huge_first + h];
    const EDGE_T end = row_offset[v + 1];
    for (EDGE_T base = row_offset[v] + (EDGE_T)get_group_id(0) * WG_SIZE; base < end;
         base += (EDGE_T)get_num_groups(0) * WG_SIZE) {
      EDGE_T e = base + lid;
      bool found = false;
      int u = -1;
      if (e < end) {
        u = column[e];
        found = claim(depth, parent, u, v, next_depth);
      }
      append_found(found, u, queue, counters, huge, row_offset, huge_degree, items, block);
    }
  }
}

// --- level sweeps of the level-synchronous treefix -------------------------------------------
#ifdef VALUE_T

#ifdef VALUE_IS_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#if defined(OP_SUM)
#define LV_COMBINE(a, b) ((a) + (b))
#define LV_IDENTITY ((VALUE_T)0)
#elif defined(OP_XOR)
#define LV_COMBINE(a, b) ((a) ^ (b))
#define LV_IDENTITY ((VALUE_T)0)
#elif defined(OP_MIN)
#define LV_COMBINE(a, b) ((b) < (a) ? (b) : (a))
#ifdef VALUE_IS_INTEGER
#define LV_IDENTITY ((VALUE_T)(sizeof(VALUE_T) == 4 ? (long)INT_MAX : LONG_MAX))
#else
#define LV_IDENTITY ((VALUE_T)INFINITY)
#endif
#elif defined(OP_MAX)
#define LV_COMBINE(a, b) ((a) < (b) ? (b) : (a))
#ifdef VALUE_IS_INTEGER
#define LV_IDENTITY ((VALUE_T)(sizeof(VALUE_T) == 4 ? (long)INT_MIN : LONG_MIN))
#else
#define LV_IDENTITY ((VALUE_T)(-INFINITY))
#endif
#else
#error "bfs.cl level sweeps need OP_SUM, OP_XOR, OP_MIN or OP_MAX (value_op_options)"
#endif

// Reduction of one value per work-item; every work-item gets the result.
VALUE_T wg_reduce_value(VALUE_T x, local VALUE_T* scratch) {
  const int lid = get_local_id(0);
  scratch[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = WG_SIZE / 2; stride > 0; stride >>= 1) {
    if (lid < stride) scratch[lid] = LV_COMBINE(scratch[lid], scratch[lid + stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  VALUE_T r = scratch[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return r;
}

// rootfix(v) = rootfix(parent) (+) w(v); exclusive: rootfix_excl(v) = rootfix_excl(parent) (+)
// w(parent), identity at a root. One level slice of the BFS order per launch, top level first.
kernel void rootfix_level(global const int* order, int begin, int count, global const int* parent,
                          global const VALUE_T* weight, global VALUE_T* result, int exclusive) {
  int i = get_global_id(0);
  if (i >= count) return;
  int v = order[begin + i];
  int p = parent[v];
  if (exclusive) result[v] = p < 0 ? LV_IDENTITY : LV_COMBINE(result[p], weight[p]);
  else result[v] = p < 0 ? weight[v] : LV_COMBINE(result[p], weight[v]);
}

// What child c contributes to its parent: its inclusive leaffix.
#define CHILD_TOTAL(c) (exclusive ? LV_COMBINE(result[c], weight[c]) : result[c])

// leaffix(v) = w(v) (+) leaffix of its children (exclusive: without w(v)), for one level slice,
// deepest level first. Rows of huge_degree children or more are left to leaffix_huge_*.
kernel void leaffix_level(global const int* order, int begin, int count,
                          global const EDGE_T* child_offset, global const int* child,
                          global const VALUE_T* weight, global VALUE_T* result, int exclusive,
                          EDGE_T huge_degree) {
  local VALUE_T scratch[WG_SIZE];
  local int big_owner;
  local EDGE_T big_begin, big_end;
  local int big_vertex;
  const int lid = get_local_id(0);
  const int tiles = (count + WG_SIZE - 1) / WG_SIZE;
  for (int tile = get_group_id(0); tile < tiles; tile += get_num_groups(0)) {
    const int i = tile * WG_SIZE + lid;
    int v = -1;
    EDGE_T first = 0, degree = 0;
    if (i < count) {
      v = order[begin + i];
      first = child_offset[v];
      degree = child_offset[v + 1] - first;
    }
    // few children: the work-item folds them itself
    if (v >= 0 && degree < WG_SIZE && degree < huge_degree) {
      VALUE_T acc = LV_IDENTITY;
      for (EDGE_T e = first; e < first + degree; ++e) {
        int c = child[e];
        acc = LV_COMBINE(acc, CHILD_TOTAL(c));
      }
      result[v] = exclusive ? acc : LV_COMBINE(acc, weight[v]);
    }
    // many children: the work-group reduces them, one vertex at a time
    bool big = v >= 0 && degree >= WG_SIZE && degree < huge_degree;
    for (;;) {
      if (lid == 0) big_owner = -1;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (big) atomic_max(&big_owner, lid);
      barrier(CLK_LOCAL_MEM_FENCE);
      const int owner = big_owner;
      if (lid == owner) {
        big_begin = first;
        big_end = first + degree;
        big_vertex = v;
        big = false;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      if (owner < 0) break;
      VALUE_T acc = LV_IDENTITY;
      for (EDGE_T e = big_begin + lid; e < big_end; e += WG_SIZE) {
        int c = child[e];
        acc = LV_COMBINE(acc, CHILD_TOTAL(c));
      }
      acc = wg_reduce_value(acc, scratch);
      if (lid == 0) result[big_vertex] = exclusive ? acc : LV_COMBINE(acc, weight[big_vertex]);
    }
  }
}

// Huge rows, step 1: work-group g reduces its strided share of the children of each huge vertex
// h into partial[h * groups + g].
kernel void leaffix_huge_partial(global const int* huge, int huge_first, int huge_count,
                                 global const EDGE_T* child_offset, global const int* child,
                                 global const VALUE_T* weight, global const VALUE_T* result,
                                 int exclusive, global VALUE_T* partial) {
  local VALUE_T scratch[WG_SIZE];
  const int lid = get_local_id(0), g = get_group_id(0), groups = get_num_groups(0);
  for (int h = 0; h < huge_count; ++h) {
    const int v = huge[huge_first + h];
    const EDGE_T end = child_offset[v + 1];
    VALUE_T acc = LV_IDENTITY;
    for (EDGE_T e = child_offset[v] + (EDGE_T)g * WG_SIZE + lid; e < end;
         e += (EDGE_T)groups * WG_SIZE) {
      int c = child[e];
      acc = LV_COMBINE(acc, CHILD_TOTAL(c));
    }
    acc = wg_reduce_value(acc, scratch);
    if (lid == 0) partial[h * groups + g] = acc;
  }
}

// Huge rows, step 2: work-group h folds the `groups` partials of huge vertex h.
kernel void leaffix_huge_finish(global const int* huge, int huge_first, int groups,
                                global const VALUE_T* weight, global VALUE_T* result,
                                int exclusive, global const VALUE_T* partial) {
  local VALUE_T scratch[WG_SIZE];
  const int lid = get_local_id(0), h = get_group_id(0);
  VALUE_T acc = LV_IDENTITY;
  for (int g = lid; g < groups; g += WG_SIZE) acc = LV_COMBINE(acc, partial[h * groups + g]);
  acc = wg_reduce_value(acc, scratch);
  const int v = huge[huge_first + h];
  if (lid == 0) result[v] = exclusive ? acc : LV_COMBINE(acc, weight[v]);
}

#endif  // VALUE_T
