#pragma once
// Tree generators (parent arrays; vertex 0 is the root unless said otherwise). Deterministic for a
// given seed.
//
// The shapes by name, in one table that the CLI's `generate`, the benchmarks and Python's
// treefix.generate all read, so that "random" is the same tree everywhere for the same n and
// seed:
//   ParentArray t = generate::tree("caterpillar", 1 << 20);          // spine n/2
//   ParentArray r = generate::tree("random-shuffled", n, {.seed = 7});
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "treefix/treefix/newick.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix::generate {

ParentArray star(std::size_t n);                                  // 0 is the parent of all others
ParentArray path(std::size_t n);                                  // parent[v] = v - 1
ParentArray caterpillar(std::size_t n, std::size_t spine);        // spine path, others leaves on it
ParentArray kary(std::size_t n, std::size_t k);                   // complete k-ary, heap order
ParentArray random_recursive(std::size_t n, std::uint64_t seed);  // parent[v] uniform in [0, v)
// A random binary tree grown by the Yule process: from the root alone, a tip chosen uniformly at
// random gets two children, until n vertices (n odd: (n + 1) / 2 tips; InputError for an even n).
// Every parent has a smaller id than its children.
ParentArray random_binary(std::size_t n, std::uint64_t seed);
// A forest of `trees` random recursive trees whose vertex ids are shuffled (roots anywhere).
ParentArray random_forest(std::size_t n, std::size_t trees, std::uint64_t seed);
// Relabels the vertices of a forest by a random permutation (parents before children no more).
ParentArray shuffle_labels(const ParentArray& parent, std::uint64_t seed);
// Branch lengths for a forest drawn from the exponential distribution of mean 1 (what a
// phylogeny's lengths look like: positive, all 53 bits of the significand used); 0 at the roots,
// which have no branch.
std::vector<double> branch_lengths(const ParentArray& parent, std::uint64_t seed);
// Names for the tips of a forest: "t1", "t2", ... in increasing vertex id; other vertices unnamed.
NodeNames tip_names(const ParentArray& parent);

// --- the shapes by name ------------------------------------------------------------------------
struct TreeParameters {
  std::size_t spine = 0;              // caterpillar: spine length (0: n / 2, at least 1)
  std::size_t k = 2;                  // kary: children per vertex
  std::size_t trees = 1;              // forest: number of trees
  std::optional<std::uint64_t> seed;  // random shapes (default: n, as the benchmarks have used)
};

// The tree of `shape` with n vertices: star, path, caterpillar, kary, random (uniform random
// recursive), random-shuffled (random with shuffled ids), binary (random_binary), forest (random
// forest). InputError naming the shapes for another name.
ParentArray tree(const std::string& shape, std::size_t n, const TreeParameters& parameters = {});

// Whether `shape` is one of the table's, and their names ("star, path, ...") for messages.
bool is_tree_shape(const std::string& shape);
const std::string& tree_shape_names();

}  // namespace treefix::generate
