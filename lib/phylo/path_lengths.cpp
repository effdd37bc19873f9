// Exact path lengths (treefix/phylo/path_lengths.hpp): one fused scan over the Euler tour keeps
// every vertex's fixed-point sum from the root; distances are differences of those sums
// (kernels/phylo/path_length.cl).
#include "treefix/phylo/path_lengths.hpp"

#include <algorithm>
#include <climits>
#include <string>

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
  const DeviceEulerTour& tour = tree.euler_tour(profile);
  if (tour.wide_positions())
    throw CapacityError("path lengths of " + std::to_string(n_) +
                        " vertices: 64-bit tour positions are not supported");
  const detail::ExactFormat format = detail::fitted_exact_format(runtime, weights, profile);
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
  if (count == 0) return;
  if (count > UINT32_MAX) throw CapacityError("more than 2^32 distances in one device call");
  Kernels k = kernels(runtime, "distances");
  cl::Buffer& bad = runtime.scratch("lca.bad", sizeof(cl_uint));
  fill(runtime, bad, cl_uint(UINT32_MAX), 1);
  k.run_bound("path_distance_pairs", k.items(count), [&](KernelArgs& args) {
    args(u, v, cl_uint(count), cl_int(n_));
    index.bind(args);
    args(prefix_, out, bad);
  });
  const cl_uint first_bad = read_value<cl_uint>(runtime, bad);
  if (first_bad != UINT32_MAX)
    index.throw_bad_pair(first_bad, read_value<cl_int>(runtime, u, first_bad),
                         read_value<cl_int>(runtime, v, first_bad));
}

void PathLengths::distances(Runtime& runtime, const LcaIndex& index, const vertex_t* u,
                            const vertex_t* v, std::size_t count, double* out,
                            std::size_t chunk_pairs) const {
  const std::size_t chunk = std::min(count, std::max<std::size_t>(chunk_pairs, 1));
  auto du = DeviceArray<vertex_t>::workspace(runtime, "lca.u", chunk);
  auto dv = DeviceArray<vertex_t>::workspace(runtime, "lca.v", chunk);
  auto dout = DeviceArray<double>::workspace(runtime, "path.out", chunk);
  for (std::size_t begin = 0; begin < count; begin += chunk) {
    const std::size_t size = std::min(chunk, count - begin);
    du.write_from(runtime, u + begin, size);
    dv.write_from(runtime, v + begin, size);
    try {
      distances(runtime, index, du.buffer(), dv.buffer(), size, dout.buffer());
    } catch (const InputError&) {  // name the pair by its place in the whole array
      for (std::size_t i = begin; i < begin + size; ++i)
        if (u[i] < 0 || v[i] < 0 || static_cast<std::size_t>(u[i]) >= n_ ||
            static_cast<std::size_t>(v[i]) >= n_)
          index.throw_bad_pair(i, u[i], v[i]);
      throw;
    }
    dout.read_into(runtime, out + begin, size);
  }
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
