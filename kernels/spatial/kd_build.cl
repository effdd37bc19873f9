// kd_build.cl: a kd-style tree with leaf buckets from the binary radix tree of sorted Morton codes
// (kernels/spatial/radix_tree.cl), in the layout of the kd-tree traversals
// (kernels/spatial/ropes_kd.clh: child pairs, point ranges, boxes dim-major).
//   kd_runs    per sorted position j: the first position of the run of equal points holding j
//              (then a max-scan), so that a range [a, b] holds one point, repeated, when
//              run[b] <= a (equal points have equal codes, so they are adjacent unless points of
//              one finest cell interleave them)
//   kd_count   per internal node: kept when it holds more than `leaf` points that are not all
//              equal (`together`: as cKDTree, equal points are never split; otherwise `run` is
//              not read and ties are split by position); a kept node becomes one inner
//              node, and each child that is not kept one leaf bucket; so it counts 1 + its bucket
//              children (0 when not kept)
//   (the host scans the counts: a kept node's number, its buckets follow it)
//   kd_write   writes the nodes: children, point ranges, depth, split (guidance for kNN: the
//              coordinate and cell boundary of the prefix bit that splits the node), and the
//              height into shape[1] (shape[0]: the node count, from the scan)
//   kd_boxes   one depth per launch, deepest first: a bucket's box from its points, an inner
//              node's from its two children (a level-synchronous leaffix, min and max)
// Every ancestor of a kept node is kept (sizes grow upwards), so a kept node's depth in the new
// tree is its depth in the radix tree, found by walking up its parents (at most code bits + 32).
// Arguments dim, bits (morton.cl's), leaf (the bucket size). Option -DREAL (spatial/real.clh).
// n > leaf (a smaller set, or one of equal points, is one bucket: kd_single_bucket).
#include "spatial/morton_frame.clh"

#define RANGE_SIZE(c) (range_last[c] - range_first[c] + 1)
#define KEPT(c) (RANGE_SIZE(c) > leaf && (!together || run[range_last[c]] > range_first[c]))
#define IS_BUCKET(c) ((c) >= n - 1 || !KEPT(c))

kernel void kd_runs(const int n, const int dim, global const real* restrict data,
                    global int* restrict run) {
  for (int j = get_global_id(0); j < n; j += get_global_size(0)) {
    bool starts = j == 0;
    for (int k = 0; k < dim && !starts; ++k) starts = data[k * n + j] != data[k * n + j - 1];
    run[j] = starts ? j : 0;
  }
}

kernel void kd_count(const int n, const int leaf, const int together,
                     global const int* restrict left, global const int* restrict right,
                     global const int* restrict range_first, global const int* restrict range_last,
                     global const int* restrict run, global int* restrict counts) {
  for (int i = get_global_id(0); i < n - 1; i += get_global_size(0))
    counts[i] = KEPT(i) ? 1 + IS_BUCKET(left[i]) + IS_BUCKET(right[i]) : 0;
}

kernel void kd_write(const int n, const int leaf, const int together, const uint dim,
                     const uint bits, global const int* restrict left,
                     global const int* restrict right, global const int* restrict parent,
                     global const int* restrict prefix, global const int* restrict range_first,
                     global const int* restrict range_last, global const int* restrict run,
                     global const int* restrict offsets, global const real* restrict data,
                     global const real* restrict frame, global int* restrict child,
                     global int* restrict first, global int* restrict count,
                     global int* restrict depth, global int* restrict split_dim,
                     global real* restrict split_value, global uint* restrict shape) {
  const int code_bits = (int)(dim * bits);
  for (int i = get_global_id(0); i < n - 1; i += get_global_size(0)) {
    if (!KEPT(i)) continue;
    const int node = offsets[i];
    int d = 0;
    for (int p = parent[i]; p >= 0; p = parent[p]) ++d;
    first[node] = range_first[i];
    count[node] = 0;
    depth[node] = d;
    const int bit = prefix[i];
    if (bit < code_bits) {
      const uint k = bit % dim, level = bit / dim;
      const uint q = morton_cell(data[k * n + range_first[i]], k, dim, bits, frame);
      const uint high = (q >> (bits - level)) << (bits - level);
      split_dim[node] = (int)k;
      split_value[node] = morton_boundary(high | (1u << (bits - 1 - level)), k, dim, frame);
    } else {  // ties split by position: no side to prefer
      split_dim[node] = -1;
      split_value[node] = 0;
    }
    int slot = node + 1;
    for (int side = 0; side < 2; ++side) {
      const int c = side ? right[i] : left[i];
      if (!IS_BUCKET(c)) {
        child[2 * node + side] = offsets[c];
        continue;
      }
      child[2 * node + side] = slot;
      child[2 * slot] = child[2 * slot + 1] = -1;
      first[slot] = c >= n - 1 ? c - (n - 1) : range_first[c];
      count[slot] = c >= n - 1 ? 1 : RANGE_SIZE(c);
      depth[slot] = d + 1;
      split_dim[slot] = -1;
      split_value[slot] = 0;
      atomic_max(&shape[1], (uint)(d + 1));
      ++slot;
    }
    atomic_max(&shape[1], (uint)d);
  }
}

kernel void kd_single_bucket(const int n, global int* restrict child, global int* restrict first,
                             global int* restrict count, global int* restrict depth,
                             global int* restrict split_dim, global real* restrict split_value) {
  if (get_global_id(0) != 0) return;
  child[0] = child[1] = -1;
  first[0] = 0;
  count[0] = n;
  depth[0] = 0;
  split_dim[0] = -1;
  split_value[0] = 0;
}

kernel void kd_boxes(const int level, const int nodes, const int dim,
                     global const int* restrict depth, global const int* restrict child,
                     global const int* restrict first, global const int* restrict count,
                     const int n, global const real* restrict data, global real* restrict box_lo,
                     global real* restrict box_hi) {
  for (int v = get_global_id(0); v < nodes; v += get_global_size(0)) {
    if (depth[v] != level) continue;
    const int begin = first[v], end = begin + count[v];
    const int a = child[2 * v], b = child[2 * v + 1];
    for (int k = 0; k < dim; ++k) {
      real lo, hi;
      if (end > begin || a < 0) {  // a bucket (or the empty tree's root: an empty box)
        lo = INFINITY;
        hi = -INFINITY;
        for (int j = begin; j < end; ++j) {
          lo = fmin(lo, data[k * n + j]);
          hi = fmax(hi, data[k * n + j]);
        }
      } else {
        lo = fmin(box_lo[k * nodes + a], box_lo[k * nodes + b]);
        hi = fmax(box_hi[k * nodes + a], box_hi[k * nodes + b]);
      }
      box_lo[k * nodes + v] = lo;
      box_hi[k * nodes + v] = hi;
    }
  }
}
