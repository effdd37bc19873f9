#pragma once
// Sums of branch lengths along the paths of a forest: root distances, patristic distances between
// any number of pairs, cophenetic matrices, and the merged branches of a pruned tree.
//
//   treefix::LcaIndex index(rt, tree);
//   treefix::PathLengths lengths(rt, tree, branch_lengths);   // one scan over the Euler tour
//   lengths.distances(rt, index, u.data(), v.data(), u.size(), d.data());
//   lengths.cophenetic(rt, index, tips, matrix.data());        // k x k, row-major
//
// Weights are the branch lengths: weight[v] is the length of the branch from v to its parent (a
// root's own length counts in its root distance and cancels in every distance between two
// vertices). They must be finite (InputError naming the vertex).
//
// Accuracy: every result is an exact sum of weights rounded once to double, |error| <= u·|result|
// (u = 2^-53), and the same bits on every run and device. The preparation carries each vertex's
// sum from the root exactly in fixed point (the format fitted to the weights' range, as the
// accurate Euler-tour treefix does: kernels/core/exact_sum.clh), and a distance is
// (P(u) - P(lca)) + (P(v) - P(lca)) in that fixed point, converted once. So the distance between
// two close tips deep in a tree loses nothing to the length of the path from the root.
// Memory: one fixed-point value a vertex (8 to 128 bytes, by the weights' range).
#include <cstddef>
#include <string>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/phylo/lca.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix {

// Branch lengths as a tree takes them: InputError "<what>: the length of vertex 17 is not
// finite" for the first vertex (in id order) whose length is an infinity or a NaN. One reduction
// on the device (the one that fits PathLengths' fixed-point format); nothing is read back but the
// verdict.
void check_finite_lengths(Runtime& runtime, const DeviceArray<double>& lengths,
                          const std::string& what);

class PathLengths {
 public:
  PathLengths() = default;
  PathLengths(Runtime& runtime, DeviceTree& tree, const DeviceArray<double>& weights,
              Profile* profile = nullptr);

  std::size_t size() const { return n_; }

  // out[v] = the sum of the weights of v and its ancestors (n values).
  void root_distances(Runtime& runtime, const cl::Buffer& out) const;

  // out[i] = the length of the path between u[i] and v[i] (0 when equal, +inf when they lie in
  // different trees). Device buffers of count values; InputError naming the first pair with a
  // vertex out of range (as LcaIndex::lca).
  void distances(Runtime& runtime, const LcaIndex& index, const cl::Buffer& u, const cl::Buffer& v,
                 std::size_t count, const cl::Buffer& out) const;
  // The same from and into host memory, any count, in chunks of `chunk` pairs.
  void distances(Runtime& runtime, const LcaIndex& index, const vertex_t* u, const vertex_t* v,
                 std::size_t count, double* out, std::size_t chunk = LcaIndex::kChunkPairs) const;

  // The k x k matrix of the distances between the listed vertices, row-major into host memory
  // (k·k doubles), made in slices of rows that fit a chunk. Symmetric, with exact zeros on the
  // diagonal. InputError for a vertex out of range.
  void cophenetic(Runtime& runtime, const LcaIndex& index, const std::vector<vertex_t>& vertices,
                  double* out) const;

  // out[i] = the sum of the weights on the path from vertex[i] up to ancestor[i], ancestor
  // excluded (the whole root path when ancestor[i] < 0): the branch that replaces a chain of
  // merged ones. ancestor[i] must be an ancestor of vertex[i] (not checked). Device buffers.
  void differences(Runtime& runtime, const cl::Buffer& vertex, const cl::Buffer& ancestor,
                   std::size_t count, const cl::Buffer& out) const;

 private:
  Kernels kernels(Runtime& runtime, const char* phase) const;
  std::size_t n_ = 0;
  SizedProgram program_;
  cl::Buffer prefix_;  // the exact sums, one fixed-point value a vertex
};

}  // namespace treefix
