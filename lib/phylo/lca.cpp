// The lowest-common-ancestor index (treefix/phylo/lca.hpp): pre-order keys, block minima and a
// sparse table over the blocks, built by kernels/phylo/lca.cl; queries in chunks.
#include "treefix/phylo/lca.hpp"

#include <algorithm>
#include <climits>
#include <string>

#include "narrow_tour.hpp"
#include "pair_queries.hpp"
#include "treefix/core/error.hpp"

namespace treefix {

namespace {
constexpr std::size_t kBlock = 32;  // LCA_BLOCK of kernels/phylo/lca.clh

std::size_t table_rows(std::size_t blocks) {
  std::size_t rows = 1;
  while ((std::size_t{1} << rows) <= blocks) ++rows;
  return rows;
}
}  // namespace

LcaIndex::LcaIndex(Runtime& runtime, DeviceTree& tree, Profile* profile) : n_(tree.size()) {
  const DeviceEulerTour& tour = detail::narrow_tour(tree, "the lca index of", profile);
  blocks_ = (n_ + kBlock - 1) / kBlock;
  const std::size_t rows = table_rows(std::max<std::size_t>(blocks_, 1));
  runtime.require_fits("the lca index of " + std::to_string(n_) + " vertices",
                       3 * n_ * 8 + rows * blocks_ * 8, std::max(n_, rows * blocks_) * 8);
  pre_order_ = tour.pre_order();
  pre_rank_ = tour.pre_rank();
  key_ = runtime.allocate(n_ * 8, "lca keys");
  prefix_min_ = runtime.allocate(n_ * 8, "lca prefix minima");
  suffix_min_ = runtime.allocate(n_ * 8, "lca suffix minima");
  table_ = runtime.allocate(rows * blocks_ * 8, "lca sparse table");
  if (n_ == 0) return;
  Kernels kernels(runtime, "phylo/lca.cl", "", {profile, "lca index"});
  kernels.run("lca_keys", kernels.items(n_), pre_order_, tour.open_pos(), tree.device_parent(),
              cl_uint(n_), key_);
  kernels.run("lca_blocks", kernels.items(blocks_), key_, cl_uint(n_), prefix_min_, suffix_min_,
              table_);
  for (std::size_t level = 1; level < rows; ++level)
    kernels.run("lca_table_level", kernels.items(blocks_), table_, cl_uint(blocks_),
                cl_uint(level));
}

void LcaIndex::bind(KernelArgs& args) const {
  args(pre_rank_, key_, prefix_min_, suffix_min_, table_, cl_uint(blocks_));
}

void LcaIndex::throw_bad_pair(std::size_t pair, vertex_t u, vertex_t v) const {
  const vertex_t bad = u < 0 || static_cast<std::size_t>(u) >= n_ ? u : v;
  throw InputError("pair " + std::to_string(pair) + ": vertex " + std::to_string(bad) +
                   " is not a vertex of the tree (" + std::to_string(n_) + " vertices)");
}

void LcaIndex::lca(Runtime& runtime, const cl::Buffer& u, const cl::Buffer& v, std::size_t count,
                   const cl::Buffer& out) const {
  if (count == 0) return;
  Kernels kernels(runtime, "phylo/lca.cl", "", {nullptr, "lca"});
  detail::run_pair_kernel(runtime, *this, kernels, "lca_pairs", u, v, count, "lca pairs",
                          [&](KernelArgs& args) { args(out); });
}

void LcaIndex::lca(Runtime& runtime, const vertex_t* u, const vertex_t* v, std::size_t count,
                   vertex_t* out, std::size_t chunk_pairs) const {
  detail::answer_in_chunks(runtime, *this, u, v, count, out, chunk_pairs, "lca.out",
                           [&](const cl::Buffer& du, const cl::Buffer& dv, std::size_t size,
                               const cl::Buffer& dout) { lca(runtime, du, dv, size, dout); });
}

vertex_t LcaIndex::mrca(Runtime& runtime, const std::vector<vertex_t>& vertices) const {
  if (vertices.empty()) throw InputError("the mrca of an empty set of vertices");
  for (std::size_t i = 0; i < vertices.size(); ++i)
    if (vertices[i] < 0 || static_cast<std::size_t>(vertices[i]) >= n_)
      throw InputError("vertex " + std::to_string(vertices[i]) + " (item " + std::to_string(i) +
                       ") is not a vertex of the tree (" + std::to_string(n_) + " vertices)");
  if (vertices.size() > UINT32_MAX) throw CapacityError("an mrca of more than 2^32 vertices");
  Kernels kernels(runtime, "phylo/lca.cl", "", {nullptr, "mrca"});
  auto set = DeviceArray<vertex_t>::upload(runtime, vertices, nullptr, "mrca set");
  cl::Buffer& range = runtime.scratch("lca.range", 2 * sizeof(cl_int));
  cl::Buffer& bad = runtime.scratch("lca.bad", sizeof(cl_uint));
  fill(runtime, range, cl_int(INT32_MAX), 1);
  fill(runtime, range, cl_int(-1), 1, {}, 1);
  fill(runtime, bad, cl_uint(UINT32_MAX), 1);
  kernels.run("lca_rank_range", kernels.items(vertices.size()), set, cl_uint(vertices.size()),
              cl_int(n_), pre_rank_, range, bad);
  cl::Buffer& out = runtime.scratch("lca.mrca", sizeof(cl_int));
  kernels.run_bound("lca_of_range", kernels.items(1), [&](KernelArgs& args) {
    args(range, pre_order_);
    bind(args);
    args(out);
  });
  return read_value<cl_int>(runtime, out);
}

}  // namespace treefix
