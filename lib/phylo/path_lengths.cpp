// Exact path lengths (treefix/phylo/path_lengths.hpp): one fused scan over the Euler tour keeps
// every vertex's fixed-point sum from the root; distances are differences of those sums
// (kernels/phylo/path_length.cl).
#include "treefix/phylo/path_lengths.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <string>
#include <vector>

#include "narrow_tour.hpp"
#include "pair_queries.hpp"
#include "treefix/core/error.hpp"
#include "treefix/primitives/detail/scan_plan.hpp"
#include "treefix/treefix/detail/exact_format.hpp"

namespace treefix {

PathLengths::PathLengths(Runtime& runtime, DeviceTree& tree, const DeviceArray<double>& weights,
                         Profile* profile)
    : n_(tree.size()) {
  if (weights.size() != n_)
    throw InputError(std::to_string(weights.size()) + " branch lengths for a tree of " +
                     std::to_string(n_) + " vertices");
  const DeviceEulerTour& tour = detail::narrow_tour(tree, "path lengths of", profile);
  const detail::ExactFormat format = detail::fitted_exact_format(runtime, weights, profile);
  if (format.nonfinite) {  // a distance through an infinite branch has no meaning: refused
    const std::size_t bad = format.first_nonfinite;
    throw InputError("branch length " +
                     std::to_string(read_value<double>(runtime, weights.buffer(), bad)) +
                     " of vertex " + std::to_string(bad) + " is not finite");
  }
  const std::size_t events = 2 * n_;
  const detail::ScanPlan plan =
      detail::plan_scan(runtime, "phylo/path_length.cl",
                        value_op_options(ValueType::float64, Op::sum) + format.options(),
                        format.value_bytes(), events, detail::kLookbackWords);
  program_ = plan.sized;
  runtime.require_fits("path lengths of " + std::to_string(n_) + " vertices",
                       n_ * format.value_bytes(), n_ * format.value_bytes());
  prefix_ = runtime.allocate(n_ * format.value_bytes(), "root path sums");
  if (n_ == 0) return;
  detail::run_scan(runtime, plan, events,
                   [&](KernelArgs& args) {
                     args(tour.tour_vertex(), tour.pre_order(), cl_int(tour.preorder_layout()),
                          weights, prefix_);
                   },
                   {profile, "path lengths"});
}

void check_finite_lengths(Runtime& runtime, const DeviceArray<double>& lengths,
                          const std::string& what) {
  if (lengths.empty()) return;
  const detail::ExactFormat format = detail::fitted_exact_format(runtime, lengths, nullptr);
  if (format.nonfinite)
    throw InputError(what + ": the length of vertex " + std::to_string(format.first_nonfinite) +
                     " is not finite");
}

Kernels PathLengths::kernels(Runtime& runtime, const char* phase) const {
  return Kernels(runtime, program_, {nullptr, phase});
}

void PathLengths::root_distances(Runtime& runtime, const cl::Buffer& out) const {
  if (n_ == 0) return;
  Kernels k = kernels(runtime, "root distances");
  k.run("path_root_distances", k.items(n_), prefix_, cl_uint(n_), out);
}

void PathLengths::distances(Runtime& runtime, const LcaIndex& index, const cl::Buffer& u,
                            const cl::Buffer& v, std::size_t count, const cl::Buffer& out) const {
  if (index.size() != n_)
    throw InputError("path lengths of " + std::to_string(n_) + " vertices with the lca index of " +
                     std::to_string(index.size()));
  if (count == 0) return;
  Kernels k = kernels(runtime, "distances");
  detail::run_pair_kernel(runtime, index, k, "path_distance_pairs", u, v, count, "distances",
                          [&](KernelArgs& args) { args(prefix_, out); });
}

void PathLengths::distances(Runtime& runtime, const LcaIndex& index, const vertex_t* u,
                            const vertex_t* v, std::size_t count, double* out,
                            std::size_t chunk_pairs) const {
  detail::answer_in_chunks(runtime, index, u, v, count, out, chunk_pairs, "path.out",
                           [&](const cl::Buffer& du, const cl::Buffer& dv, std::size_t size,
                               const cl::Buffer& dout) {
                             distances(runtime, index, du, dv, size, dout);
                           });
}

void PathLengths::cophenetic(Runtime& runtime, const LcaIndex& index,
                             const std::vector<vertex_t>& vertices, double* out) const {
  const std::size_t k = vertices.size();
  for (std::size_t i = 0; i < k; ++i)
    if (vertices[i] < 0 || static_cast<std::size_t>(vertices[i]) >= n_)
      throw InputError("vertex " + std::to_string(vertices[i]) + " (item " + std::to_string(i) +
                       ") is not a vertex of the tree (" + std::to_string(n_) + " vertices)");
  if (k == 0) return;
  if (k > UINT32_MAX) throw CapacityError("a cophenetic matrix of more than 2^32 vertices");
  const std::size_t rows = std::max<std::size_t>(1, std::min(k, LcaIndex::kChunkPairs / k));
  auto list = DeviceArray<vertex_t>::upload(runtime, vertices, nullptr, "cophenetic vertices");
  auto slice = DeviceArray<double>::workspace(runtime, "path.out", rows * k);
  Kernels kern = kernels(runtime, "cophenetic");
  for (std::size_t first = 0; first < k; first += rows) {
    const std::size_t count = std::min(rows, k - first);
    kern.run_bound("path_cophenetic", kern.items(count * k), [&](KernelArgs& args) {
      args(list, cl_uint(k), cl_uint(first), cl_uint(count));
      index.bind(args);
      args(prefix_, slice);
    });
    slice.read_into(runtime, out + first * k, count * k);
  }
}

void PathLengths::differences(Runtime& runtime, const cl::Buffer& vertex,
                              const cl::Buffer& ancestor, std::size_t count,
                              const cl::Buffer& out) const {
  if (count == 0) return;
  Kernels k = kernels(runtime, "path differences");
  k.run("path_differences", k.items(count), vertex, ancestor, cl_uint(count), prefix_, out);
}

}  // namespace treefix
