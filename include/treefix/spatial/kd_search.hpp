#pragma once
// Exact searches on a device kd-tree (treefix/spatial/device_build.hpp) in the conventions of
// scipy.spatial.cKDTree, run by the rope-stack engine (kernels/spatial/ropes_kd_nearest.clh,
// ropes_kd_pairs.clh):
//   nearest        the k nearest points (any k; a list of ranks), Minkowski p, eps,
//                  distance_upper_bound                                       cKDTree.query
//   count_within   how many points lie within r of each query               query_ball_point
//                                                                             (return_length)
//   pairs_within   which points lie within r of each query, in two passes on the device (count,
//                  scan for offsets, fill)      query_ball_point, query_ball_tree, query_pairs,
//                                                                    sparse_distance_matrix
//   pair_counts    the (weighted) pairs per distance bin                      count_neighbors
//
// Arithmetic (Real = double gives cKDTree's results): distances are computed with cKDTree's
// operations in cKDTree's order (kernels/spatial/ropes_kd_metric.clh), so that with p = 1, 2 or
// infinity they equal cKDTree's bit for bit; with another p the device's pow (a few units in the
// last place from the C library's) is used. The comparisons are cKDTree's: a neighbour is closer
// than distance_upper_bound (strictly), a pair lies within r when its distance is at most r; both
// are compared as distance^p against bound^p computed on the host as cKDTree computes it.
// Ties: the k nearest are ordered by (distance, index), so among equal distances the smaller
// index comes first and is kept at the k-th place (cKDTree keeps whichever it met first).
// Approximate search (eps > 0): nearest prunes a node farther than current bound / (1 + eps), so
// the k-th result is within (1 + eps) of the true k-th; the pair searches ignore eps except for
// widen_by_eps (query_pairs: pairs up to r (1 + eps), cKDTree's test for the pairs it checks),
// which satisfies cKDTree's guarantee (nothing nearer than r / (1 + eps) missed, nothing farther
// than r (1 + eps) reported) with a result that does not depend on the tree.
// Periodic boxes (box, cKDTree's boxsize): coordinate k wraps with period box[k] > 0 (0: open);
// the data must lie in [0, box[k]) (check_periodic_box), queries are wrapped into it.
// Queries come from a QuerySource: points given in any order (sorted along a Morton curve on the
// device when options.sort says so, results put back in their order), or a tree's own points
// (run in that tree's order, results in the order its points were given to build_kd_tree).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/spatial/device_build.hpp"
#include "treefix/spatial/neighbours.hpp"

namespace treefix {

// The queries of a search: `points`, or the points of `tree` (as given to build_kd_tree), or,
// both null, the searched tree's own points.
template <class Real>
struct QuerySource {
  const BasicDevicePoints<Real>* points = nullptr;
  const BasicDeviceKdTree<Real>* tree = nullptr;
};

// The distance: Minkowski p (1 <= p <= infinity) in a periodic box (empty: none; else one period
// per coordinate, 0 for an open coordinate).
struct Metric {
  double p = 2;
  std::vector<double> box;
};

// InputError unless every point of `tree` lies in [0, box[k]) where box[k] > 0 (cKDTree's
// messages), box has one finite value >= 0 per coordinate, and 1 <= p.
template <class Real>
void check_periodic_box(Runtime& runtime, const BasicDeviceKdTree<Real>& tree,
                        const std::vector<double>& box);

struct NearestQuery {
  std::vector<std::int64_t> ranks;  // 1-based ranks of the neighbours wanted (k = {1 .. k})
  double eps = 0;
  double distance_upper_bound = std::numeric_limits<double>::infinity();
  Metric metric;
};

// For every query q: index[q * ranks + t] and distance[q * ranks + t] of its ranks[t]-th nearest
// point (t < ranks.size()), or tree.points and infinity where fewer points qualify. The arrays
// hold at least queries * ranks values. k (the largest rank) may exceed the tree's points.
template <class Real>
void nearest(Runtime& runtime, const BasicDeviceKdTree<Real>& tree, QuerySource<Real> queries,
             const NearestQuery& query, DeviceArray<std::int64_t>& index,
             DeviceArray<Real>& distance, const QueryOptions& options = {});

struct RadiusQuery {
  std::vector<double> radius;  // one radius, or one per query (in the queries' order)
  double eps = 0;
  bool widen_by_eps = false;  // within r (1 + eps): query_pairs' rule
  bool greater_only = false;  // only points whose index exceeds the query's (query_pairs)
  bool distances = false;     // pairs_within: also the distances
  Metric metric;
};

// counts[q] = the number of points within the radius of query q (the array holds >= queries).
template <class Real>
void count_within(Runtime& runtime, const BasicDeviceKdTree<Real>& tree, QuerySource<Real> queries,
                  const RadiusQuery& query, DeviceArray<std::int64_t>& counts,
                  const QueryOptions& options = {});

// The points within the radius of each query: query q's are index[offset[q] .. offset[q + 1]),
// in no particular order (the traversal's), with their distances when asked.
template <class Real>
struct PairLists {
  std::size_t queries = 0, total = 0;
  DeviceArray<std::int64_t> offset;  // queries + 1 values
  DeviceArray<std::int32_t> index;   // total values (at least one: never a zero-sized buffer)
  DeviceArray<Real> distance;        // total values when RadiusQuery::distances, else empty
};
template <class Real>
PairLists<Real> pairs_within(Runtime& runtime, const BasicDeviceKdTree<Real>& tree,
                             QuerySource<Real> queries, const RadiusQuery& query,
                             const QueryOptions& options = {});

struct PairCountQuery {
  std::vector<double> edges;          // distance bin edges, ascending, distinct, >= 0
  std::vector<double> query_weights;  // one per query (empty: 1 each)
  std::vector<double> point_weights;  // one per tree point, in build order (empty: 1 each)
  Metric metric;
};
// sums[b] = the sum of query_weight * point_weight over the pairs (query, point) whose distance
// d satisfies edges[b - 1] < d <= edges[b] (b = 0: d <= edges[0]); pairs farther than the last
// edge are not counted. Sums are formed per query in traversal order, then over the queries in
// a fixed order: the same bits on every run (integers exactly, up to 2^53, without weights).
template <class Real>
std::vector<double> pair_counts(Runtime& runtime, const BasicDeviceKdTree<Real>& tree,
                                QuerySource<Real> queries, const PairCountQuery& query,
                                const QueryOptions& options = {});

}  // namespace treefix
