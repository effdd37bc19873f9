#pragma once
// Lowest common ancestors (most recent common ancestors, MRCA) of a forest on the device, for any
// number of pairs.
//
//   treefix::DeviceTree tree(rt, parent);
//   treefix::LcaIndex index(rt, tree);                 // 3 + log2(n/32) launches, kept
//   index.lca(rt, u.data(), v.data(), u.size(), out.data());   // host arrays, in chunks
//   vertex_t a = index.mrca(rt, {3, 17, 42});
//
// How: list the vertices in pre-order and key each by (depth, parent). For u before v in
// pre-order, the vertices after u up to v hold a child of lca(u, v) and nothing shallower, so
// lca(u, v) is the parent of the shallowest of them: a range minimum over the keys
// (kernels/phylo/lca.clh). Blocks of 32 keys keep their prefix and suffix minima and a sparse
// table covers the blocks between, so a query reads at most six values (or scans at most 31 keys
// when u and v lie in one block). Memory: 24 bytes a vertex, plus 8·(n/32)·log2(n/32) bytes for
// the table. The lca of a set is the lca of its first and last vertex in pre-order.
// Results are vertex ids, exact; -1 for two vertices in different trees of a forest.
#include <cstddef>
#include <vector>

#include "treefix/core/launch.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix {

class LcaIndex {
 public:
  LcaIndex() = default;
  // Built from the tree's Euler tour (positions must be 32-bit: n <= 2^30, CapacityError beyond).
  LcaIndex(Runtime& runtime, DeviceTree& tree, Profile* profile = nullptr);

  std::size_t size() const { return n_; }

  // out[i] = lca(u[i], v[i]) for i < count, device buffers of int32 (u, v and out of at least
  // count values). InputError "pair 17: vertex 99 is not a vertex of the tree (20 vertices)" for
  // the first pair with a vertex out of range.
  void lca(Runtime& runtime, const cl::Buffer& u, const cl::Buffer& v, std::size_t count,
           const cl::Buffer& out) const;
  // The same from and into host memory (the caller's arrays), any count: in chunks of at most
  // `chunk` pairs, each sent, answered and read back before the next.
  static constexpr std::size_t kChunkPairs = std::size_t{1} << 24;
  void lca(Runtime& runtime, const vertex_t* u, const vertex_t* v, std::size_t count, vertex_t* out,
           std::size_t chunk = kChunkPairs) const;

  // The lca of a set of vertices (its single vertex for a set of one); -1 when they span several
  // trees. InputError for an empty set or a vertex out of range.
  vertex_t mrca(Runtime& runtime, const std::vector<vertex_t>& vertices) const;

  // The index's buffers as the LCA_PARAMS of kernels/phylo/lca.clh, for kernels of other files
  // that answer lca queries themselves (distances, surgery).
  void bind(KernelArgs& args) const;
  const cl::Buffer& pre_order() const { return pre_order_; }
  const cl::Buffer& pre_rank() const { return pre_rank_; }

  // "pair 17: vertex 99 is not a vertex of the tree (20 vertices)", for a pair the device flagged.
  [[noreturn]] void throw_bad_pair(std::size_t pair, vertex_t u, vertex_t v) const;

 private:
  std::size_t n_ = 0, blocks_ = 0;
  cl::Buffer pre_order_, pre_rank_, key_, prefix_min_, suffix_min_, table_;
};

}  // namespace treefix
