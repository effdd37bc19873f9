#pragma once
// Spatial queries run by the rope-stack engine (traverse.hpp), each with brute-force and
// tree-based CPU references:
//   correlation   2-point correlation on a kd-tree: for each query, the number of data points p
//                 with |p - q|^2 <= r^2 (the query itself included when it is a data point)
//   knn           the k nearest data points of each query, on a kd-tree or a vp-tree (guided)
// Exactness: distances are squared float distances summed over dimensions in index order
// (treefix::squared_distance), identical on host and device, and r^2 is float(r)*float(r); so the
// results equal brute force exactly. Ties in kNN are ordered by the smaller data index.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/spatial/device_build.hpp"
#include "treefix/spatial/ropes.hpp"
#include "treefix/spatial/trees.hpp"

namespace treefix {

struct QueryOptions {
  Variant variant = Variant::automatic;
  SortMode sort = SortMode::automatic;
  Profile* profile = nullptr;       // upload / traverse / download timings
  TraversalStats* stats = nullptr;  // per query, in the order the traversal ran them
  Variant* chosen = nullptr;        // the variant actually run
  bool* sorted = nullptr;           // whether the queries were sorted
};

std::vector<std::uint32_t> correlation_counts(Runtime& runtime, const KdTree& tree,
                                              const PointSet& queries, double radius,
                                              const QueryOptions& options = {});

// k neighbours per query, query-major: index[q*k + j], squared distance d2[q*k + j], nearest first.
struct Neighbours {
  int k = 0;
  std::vector<std::int32_t> index;
  std::vector<float> d2;
};
constexpr int max_knn_k = 64;  // k is compiled into the kernel (a private array per work-item)

Neighbours knn(Runtime& runtime, const KdTree& tree, const PointSet& queries, int k,
               const QueryOptions& options = {});
Neighbours knn(Runtime& runtime, const VpTree& tree, const PointSet& queries, int k,
               const QueryOptions& options = {});

// On a device kd-tree (treefix/spatial/device_build.hpp), everything on the device: queries
// sorted there (Morton order) when options.sort says so, results scattered back there, in the
// queries' order. queries == nullptr: the tree's own points, in the order they were given to
// build_kd_tree (their Morton order is the tree's, so sorting costs nothing). The output arrays
// hold at least queries * 1 (counts) or queries * k (index, d2) values.
void correlation_counts(Runtime& runtime, const DeviceKdTree& tree, const DevicePoints* queries,
                        double radius, DeviceArray<std::uint32_t>& counts,
                        const QueryOptions& options = {});
void knn(Runtime& runtime, const DeviceKdTree& tree, const DevicePoints* queries, int k,
         DeviceArray<std::int32_t>& index, DeviceArray<float>& d2,
         const QueryOptions& options = {});

namespace reference {
std::vector<std::uint32_t> correlation_brute(const PointSet& data, const PointSet& queries,
                                             double radius);
// The same traversal as the device's, on `threads` host threads (0: all cores).
std::vector<std::uint32_t> correlation_tree(const KdTree& tree, const PointSet& queries,
                                            double radius, unsigned threads = 0,
                                            std::vector<std::uint32_t>* visits = nullptr);
Neighbours knn_brute(const PointSet& data, const PointSet& queries, int k);
Neighbours knn_tree(const KdTree& tree, const PointSet& queries, int k, unsigned threads = 0);
Neighbours knn_tree(const VpTree& tree, const PointSet& queries, int k, unsigned threads = 0);
}  // namespace reference

}  // namespace treefix
