// kNN and 2-point correlation on a device kd-tree, queries and results on the device
// (treefix/spatial/neighbours.hpp): kernels/spatial/ropes_knn.clh, ropes_correlation.clh.
#include <string>

#include "treefix/primitives/detail/permute_rows.hpp"
#include "spatial/device_trees.hpp"
#include "spatial/morton.hpp"
#include "treefix/core/error.hpp"
#include "treefix/spatial/neighbours.hpp"

namespace treefix {
namespace {

// The queries in the order the traversal runs them, and how results get back to query order.
struct QueryRun {
  std::size_t n = 0;
  DeviceArray<float> query;
  bool sorted = false;
  DeviceArray<std::int32_t> order;  // run position -> query index; empty: no scatter
};

QueryRun query_run(Runtime& runtime, const DeviceKdTree& tree, const DevicePoints* queries,
                   SortMode mode, Profile* profile) {
  QueryRun r;
  r.n = queries ? queries->n : tree.points;
  r.sorted = choose_sort(mode, r.n);
  const int dim = tree.dim;
  detail::Permuter floats(runtime, "float", {profile, "query sort"});
  if (!queries && r.sorted) {  // the tree's points are in Morton order already
    r.query = tree.data;
    r.order = tree.point_index;
  } else if (!queries) {
    r.query = DeviceArray<float>(runtime, r.n * dim, "queries");
    floats.scatter_columns(r.n, dim, tree.point_index.buffer(), tree.data.buffer(),
                           r.query.buffer());
  } else if (r.sorted && r.n > 0) {
    DeviceArray<float> frame;
    detail::sort_along_morton_curve(runtime, queries->coord.buffer(), r.n, dim, false, frame,
                                    r.order, profile);
    r.query = DeviceArray<float>(runtime, r.n * dim, "queries");
    floats.gather_columns(r.n, dim, r.order.buffer(), queries->coord.buffer(), r.query.buffer());
  } else {
    r.query = queries->coord;
  }
  return r;
}

void check_queries(const DeviceKdTree& tree, const DevicePoints* queries, const char* what) {
  if (queries && queries->dim != tree.dim)
    throw InputError(std::string(what) + ": queries have dimension " +
                     std::to_string(queries->dim) + ", the points " + std::to_string(tree.dim));
}

// Runs the traversal into `out...` (values per query: `per`), un-permuting on the device.
template <class Bind>
void run_queries(Runtime& runtime, const DeviceKdTree& tree, const TraversalPieces& pieces,
                 const QueryRun& run, const QueryOptions& options, Bind bind_outputs) {
  Variant variant = choose_variant(runtime, options.variant, pieces, run.sorted);
  if (options.chosen) *options.chosen = variant;
  if (options.sorted) *options.sorted = run.sorted;
  if (run.n == 0) {
    if (options.stats) *options.stats = {};
    return;
  }
  run_traversal(
      runtime, pieces, variant, tree.shape, run.n,
      [&](KernelArgs& args) {
        args(cl_uint(tree.shape.nodes), tree.child, tree.first, tree.count, tree.box_lo,
             tree.box_hi, tree.split_dim, tree.split_value, cl_uint(tree.points), tree.data,
             tree.point_index, cl_uint(run.n), run.query);
        bind_outputs(args);
      },
      options.profile, options.stats);
}

// out[order[i]*per + j] = in[i*per + j], or a plain copy when nothing was permuted.
template <class T>
void to_query_order(Runtime& runtime, const QueryRun& run, std::size_t per,
                    const DeviceArray<T>& in, DeviceArray<T>& out, const char* type,
                    Profile* profile) {
  if (run.order.empty() && run.n > 0) {
    runtime.queue().enqueueCopyBuffer(in.buffer(), out.buffer(), 0, 0, run.n * per * sizeof(T));
    return;
  }
  if (run.n > 0)
    detail::Permuter(runtime, type, {profile, "query sort"})
        .scatter_rows(run.n, per, run.order.buffer(), in.buffer(), out.buffer());
}

}  // namespace

void correlation_counts(Runtime& runtime, const DeviceKdTree& tree, const DevicePoints* queries,
                        double radius, DeviceArray<std::uint32_t>& counts,
                        const QueryOptions& options) {
  const float radius2 = detail::squared_radius(radius);
  check_queries(tree, queries, "correlation");
  TraversalPieces pieces{"ropes-correlation",
                         Runtime::expanded_source("spatial/ropes_correlation.clh"),
                         detail::dim_option("correlation", tree.dim), false};
  translate_device_errors("correlation", [&] {
    QueryRun run = query_run(runtime, tree, queries, options.sort, options.profile);
    if (counts.size() < run.n) throw InputError("correlation: the count array is too small");
    DeviceArray<std::uint32_t> in_run_order(runtime, run.n, "correlation counts");
    run_queries(runtime, tree, pieces, run, options,
                [&](KernelArgs& args) { args(radius2, in_run_order); });
    to_query_order(runtime, run, 1, in_run_order, counts, "uint", options.profile);
  });
}

void knn(Runtime& runtime, const DeviceKdTree& tree, const DevicePoints* queries, int k,
         DeviceArray<std::int32_t>& index, DeviceArray<float>& d2, const QueryOptions& options) {
  if (k < 1 || k > max_knn_k)
    throw InputError("knn (kd-tree): k = " + std::to_string(k) + " is outside 1.." +
                     std::to_string(max_knn_k));
  if (static_cast<std::size_t>(k) > tree.points)
    throw InputError("knn (kd-tree): k = " + std::to_string(k) + " exceeds the " +
                     std::to_string(tree.points) + " data points");
  check_queries(tree, queries, "knn (kd-tree)");
  TraversalPieces pieces{"ropes-knn-kd", Runtime::expanded_source("spatial/ropes_knn.clh"),
                         detail::dim_option("knn", tree.dim) + " -DKNN_K=" + std::to_string(k),
                         true};
  translate_device_errors("knn", [&] {
    QueryRun run = query_run(runtime, tree, queries, options.sort, options.profile);
    const std::size_t values = run.n * static_cast<std::size_t>(k);
    if (index.size() < values || d2.size() < values)
      throw InputError("knn: the result arrays are too small");
    DeviceArray<std::int32_t> run_index(runtime, values, "neighbour indices");
    DeviceArray<float> run_d2(runtime, values, "neighbour distances");
    run_queries(runtime, tree, pieces, run, options,
                [&](KernelArgs& args) { args(run_index, run_d2); });
    to_query_order(runtime, run, k, run_index, index, "int", options.profile);
    to_query_order(runtime, run, k, run_d2, d2, "float", options.profile);
  });
}

}  // namespace treefix
