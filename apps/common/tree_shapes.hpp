#pragma once
// The tree shapes that `treefix generate` writes and the benchmarks time, in one table: a name,
// the generator, and what the shape reads. Every program asks here, so "random" is the same
// tree everywhere for the same n and seed.
//
//   ParentArray t = make_tree_shape("caterpillar", 1 << 20);        // spine n/2
//   ParentArray r = make_tree_shape("random-shuffled", n, {.seed = 7});
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "treefix/treefix/tree.hpp"

namespace treefix::cli {

struct TreeShapeParameters {
  std::size_t spine = 0;              // caterpillar: spine length (0: n / 2, at least 1)
  std::size_t k = 2;                  // kary: children per vertex
  std::size_t trees = 1;              // forest: number of trees
  std::optional<std::uint64_t> seed;  // random shapes (default: n, as the benchmarks have used)
};

// The tree of `shape` with n vertices: star, path, caterpillar, kary, random (uniform random
// recursive), random-shuffled (random with shuffled ids), forest (random forest). InputError
// naming the shapes for another name.
ParentArray make_tree_shape(const std::string& shape, std::size_t n,
                            const TreeShapeParameters& parameters = {});

// Whether `shape` is one of the table's, and their names ("star, path, ...") for messages.
bool is_tree_shape(const std::string& shape);
const std::string& tree_shape_names();

}  // namespace treefix::cli
