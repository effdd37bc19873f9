// k nearest neighbours on host kd-trees (uploaded; the device traversal is in kd_queries.cpp) and
// vp-trees (kernels/spatial/ropes_vp.clh), and the brute-force and tree-based CPU references.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "spatial/device_trees.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/spatial/neighbours.hpp"

namespace treefix {
namespace {

void check_knn(const LinearTree& tree, const PointSet& queries, int k, const char* what) {
  if (k < 1 || k > max_knn_k)
    throw InputError(std::string(what) + ": k = " + std::to_string(k) + " is outside 1.." +
                     std::to_string(max_knn_k));
  if (static_cast<std::size_t>(k) > tree.points.n)
    throw InputError(std::string(what) + ": k = " + std::to_string(k) + " exceeds the " +
                     std::to_string(tree.points.n) + " data points");
  if (queries.dim != tree.points.dim)
    throw InputError(std::string(what) + ": queries have dimension " + std::to_string(queries.dim) +
                     ", the points " + std::to_string(tree.points.dim));
}

// Runs a kNN traversal whose tree-specific arguments `bind_tree` sets before the query arrays.
template <class BindTree>
Neighbours run_knn(Runtime& runtime, const LinearTree& tree, const PointSet& queries, int k,
                   const QueryOptions& options, const char* label, const char* pieces_file,
                   std::size_t arg_bytes, BindTree bind_tree) {
  TraversalPieces pieces{label, Runtime::expanded_source(pieces_file),
                         detail::dim_option(label, queries.dim) + " -DKNN_K=" + std::to_string(k),
                         true, arg_bytes};
  auto run = detail::run_order(queries, options.sort);
  Variant variant = choose_variant(runtime, options.variant, pieces, run.sorted);
  if (options.chosen) *options.chosen = variant;
  if (options.sorted) *options.sorted = run.sorted;
  Neighbours result;
  result.k = k;
  if (queries.n == 0) {
    if (options.stats) *options.stats = {};
    return result;
  }
  auto query = DeviceArray<float>::upload(runtime, run.points.coord, options.profile, "queries");
  DeviceArray<std::int32_t> out_id(runtime, queries.n * k, "neighbour indices");
  DeviceArray<float> out_d2(runtime, queries.n * k, "neighbour distances");
  run_traversal(
      runtime, pieces, variant, tree.shape(), queries.n,
      [&](KernelArgs& args) {
        bind_tree(args, cl_uint(queries.n), query.buffer());
        args(out_id, out_d2);
      },
      options.profile, options.stats);
  result.index = detail::unpermute(out_id.download(runtime, options.profile), run.order, k);
  result.d2 = detail::unpermute(out_d2.download(runtime, options.profile), run.order, k);
  return result;
}

// The host mirror of kernels/spatial/ropes_heap.clh.
struct Best {
  int k;
  std::vector<float> d2;
  std::vector<std::int32_t> id;
  explicit Best(int kk) : k(kk) {}
  float bound() const {
    return int(d2.size()) < k ? std::numeric_limits<float>::infinity() : d2.back();
  }
  void offer(float d, std::int32_t i) {
    auto before = [](float da, std::int32_t ia, float db, std::int32_t ib) {
      return da < db || (da == db && ia < ib);
    };
    if (int(d2.size()) == k && !before(d, i, d2.back(), id.back())) return;
    std::size_t pos = d2.size();
    while (pos > 0 && before(d, i, d2[pos - 1], id[pos - 1])) --pos;
    d2.insert(d2.begin() + pos, d);
    id.insert(id.begin() + pos, i);
    if (int(d2.size()) > k) {
      d2.pop_back();
      id.pop_back();
    }
  }
};

struct KdKnnState {
  using Entry = std::int32_t;
  const KdTree& t;
  const float* q;
  Best best;
  bool truncate(std::int32_t node) const {
    return detail::box_distance2(t, q, node) > best.bound();
  }
  void visit(std::int32_t node) {
    for (std::int32_t j = t.first[node]; j < t.first[node] + t.count[node]; ++j)
      best.offer(detail::point_distance2(t.points, q, j), t.point_index[j]);
  }
  int call_set(std::int32_t node) const {
    int dim = t.split_dim[node];
    return dim < 0 ? 0 : (q[dim] < t.split_value[node] ? 0 : 1);
  }
  std::int32_t child(std::int32_t node, int cs, int i) const {
    return t.child[2 * node + (i ^ cs)];
  }
};

struct VpKnnState {
  using Entry = std::pair<std::int32_t, float>;  // the stack argument: distance to the parent's vp
  const VpTree& t;
  const float* q;
  Best best;
  float arg = 0, dv = 0;
  bool truncate(std::int32_t node) const {
    std::int32_t pv = t.parent_vantage[node];
    float bound = best.bound();
    if (pv < 0 || std::isinf(bound)) return false;
    float tau = std::sqrt(bound);
    float d = arg;
    float lo = t.parent_lo[node], hi = t.parent_hi[node];
    float slack = 1e-5f * (d + tau + hi) + 1e-30f;
    return d - hi > tau + slack || lo - d > tau + slack;
  }
  void visit(std::int32_t node) {
    for (std::int32_t j = t.first[node]; j < t.first[node] + t.count[node]; ++j) {
      float d2 = detail::point_distance2(t.points, q, j);
      best.offer(d2, t.point_index[j]);
      dv = std::sqrt(d2);
    }
  }
  int call_set(std::int32_t node) const {
    if (t.child[2 * node] < 0) return 0;
    return dv < t.mu[node] ? 0 : 1;
  }
  float child_arg(std::int32_t, int, int) const { return dv; }
  std::int32_t child(std::int32_t node, int cs, int i) const {
    return t.child[2 * node + (i ^ cs)];
  }
};

template <class State, class Tree>
Neighbours knn_on_host(const Tree& tree, const PointSet& queries, int k, unsigned threads) {
  Neighbours result;
  result.k = k;
  result.index.assign(queries.n * k, -1);
  result.d2.assign(queries.n * k, std::numeric_limits<float>::infinity());
  parallel_for_ranges(queries.n, kRopeItemsPerPiece, threads,
                      [&](std::size_t begin, std::size_t end) {
                        std::vector<typename State::Entry> stack;
                        std::vector<float> q(queries.dim);
                        for (std::size_t i = begin; i < end; ++i) {
                          for (int d = 0; d < queries.dim; ++d) q[d] = queries.at(i, d);
                          State s{tree, q.data(), Best(k)};
                          cpu_rope_traverse(s, tree, stack);
                          for (std::size_t j = 0; j < s.best.d2.size(); ++j) {
                            result.index[i * k + j] = s.best.id[j];
                            result.d2[i * k + j] = s.best.d2[j];
                          }
                        }
                      });
  return result;
}

}  // namespace

Neighbours knn(Runtime& runtime, const KdTree& tree, const PointSet& queries, int k,
               const QueryOptions& options) {
  check_knn(tree, queries, k, "knn (kd-tree)");
  DeviceKdTree device_tree = DeviceKdTree::upload(runtime, tree, options.profile);
  DevicePoints device_queries = DevicePoints::upload(runtime, queries, options.profile);
  DeviceArray<std::int32_t> index(runtime, queries.n * k, "neighbour indices");
  DeviceArray<float> d2(runtime, queries.n * k, "neighbour distances");
  knn(runtime, device_tree, &device_queries, k, index, d2, options);
  Neighbours result;
  result.k = k;
  result.index = index.download(runtime, options.profile);
  result.d2 = d2.download(runtime, options.profile);
  return result;
}

Neighbours knn(Runtime& runtime, const VpTree& tree, const PointSet& queries, int k,
               const QueryOptions& options) {
  check_knn(tree, queries, k, "knn (vp-tree)");
  auto* p = options.profile;
  auto child = DeviceArray<std::int32_t>::upload(runtime, tree.child, p, "vp-tree children");
  auto first = DeviceArray<std::int32_t>::upload(runtime, tree.first, p, "vp-tree ranges");
  auto count = DeviceArray<std::int32_t>::upload(runtime, tree.count, p, "vp-tree ranges");
  auto pv = DeviceArray<std::int32_t>::upload(runtime, tree.parent_vantage, p, "vp-tree parents");
  auto lo = DeviceArray<float>::upload(runtime, tree.parent_lo, p, "vp-tree bounds");
  auto hi = DeviceArray<float>::upload(runtime, tree.parent_hi, p, "vp-tree bounds");
  auto mu = DeviceArray<float>::upload(runtime, tree.mu, p, "vp-tree radii");
  auto data = DeviceArray<float>::upload(runtime, tree.points.coord, p, "vp-tree points");
  auto index = DeviceArray<std::int32_t>::upload(runtime, tree.point_index, p, "vp-tree indices");
  return run_knn(runtime, tree, queries, k, options, "ropes-knn-vp", "spatial/ropes_vp.clh",
                 sizeof(float), [&](KernelArgs& args, cl_uint nq, const cl::Buffer& query) {
                   args(cl_uint(tree.nodes()), child, first, count, pv, lo, hi, mu,
                        cl_uint(tree.points.n), data, index, nq, query);
                 });
}

namespace reference {

Neighbours knn_brute(const PointSet& data, const PointSet& queries, int k) {
  if (k < 1 || static_cast<std::size_t>(k) > data.n)
    throw InputError("knn: k = " + std::to_string(k) + " must be in 1.." + std::to_string(data.n));
  Neighbours result;
  result.k = k;
  result.index.resize(queries.n * k);
  result.d2.resize(queries.n * k);
  parallel_for_ranges(queries.n, kRopeItemsPerPiece, 0, [&](std::size_t begin, std::size_t end) {
    std::vector<std::pair<float, std::int32_t>> all(data.n);
    for (std::size_t q = begin; q < end; ++q) {
      for (std::size_t j = 0; j < data.n; ++j)
        all[j] = {squared_distance(queries, q, data, j), std::int32_t(j)};
      std::partial_sort(all.begin(), all.begin() + k, all.end());
      for (int j = 0; j < k; ++j) {
        result.d2[q * k + j] = all[j].first;
        result.index[q * k + j] = all[j].second;
      }
    }
  });
  return result;
}

Neighbours knn_tree(const KdTree& tree, const PointSet& queries, int k, unsigned threads) {
  check_knn(tree, queries, k, "knn (kd-tree)");
  return knn_on_host<KdKnnState>(tree, queries, k, threads);
}

Neighbours knn_tree(const VpTree& tree, const PointSet& queries, int k, unsigned threads) {
  check_knn(tree, queries, k, "knn (vp-tree)");
  return knn_on_host<VpKnnState>(tree, queries, k, threads);
}

}  // namespace reference
}  // namespace treefix
