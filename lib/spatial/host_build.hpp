#pragma once
// Internal to the spatial module: what the host tree builders share.
#include <cstdint>

#include "treefix/spatial/trees.hpp"

namespace treefix::detail {

// InputError for no dimension or a non-finite coordinate; CapacityError past 32-bit indices.
void check_points(const PointSet& points, const char* what);
// Checks the points and the leaf size, sets the arity and the identity point order.
void start_tree(LinearTree& tree, const PointSet& points, int arity, int leaf_size,
                const char* what);
// Appends a node with no children and returns its number.
std::int32_t new_node(LinearTree& tree, std::int32_t first, std::int32_t count);
// Moves the tree's points into tree order (point_index already holds the order).
void gather_points(LinearTree& tree, const PointSet& points);

}  // namespace treefix::detail
