#pragma once
// The seed's parallel treefix (Defour & Marin, "Regularity versus load-balancing on GPU for
// treefix computations", Algorithm 1): every call runs a queue-based, level-synchronous
// breadth-first search over the forest's child lists (CSR), from the roots down,
//   rootfix  applying the operator as each level is expanded: result(c) = result(v) (+) w(c) for
//            every child c of a vertex v of the frontier (exclusive: result(v) (+) w(v));
//   leaffix  recording the queue level by level on the way down, then folding each level's
//            children deepest level first (the folds of levels.hpp, children in CSR order).
// Nothing is kept between calls: the queue is found again every time. That is the difference from
// `levels` (levels.hpp), which builds its level structure once per tree and sweeps it on every
// call. A level costs one launch (the children gathered with Merrill's scan-based load balancing,
// which the seed used; rows of very many children shared by every work-group); the host reads the
// frontier's size back only every few levels (1, 2, 4, ... up to 64 launches apart), so the
// launches run back to back. A forest of depth D costs D + 1 launches each way, so deep trees
// are slow: that is the seed's finding (its caterpillar), reproduced (docs/seeds.md).
//
// Results are bit for bit those of `levels` for every operator and precision (the same
// arithmetic in the same order), and deterministic.
//
//   treefix::DeviceChildLists csr = treefix::upload_child_lists(rt, parent);
//   auto w = treefix::DeviceArray<float>::upload(rt, weights);
//   treefix::DeviceArray<float> r(rt, parent.size());
//   treefix::bfs_rootfix(rt, csr, w, r, treefix::Op::sum);
// or through a DeviceTree with TreefixOptions::algorithm = Algorithm::bfs (treefix.hpp).
#include <cstddef>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/core/types.hpp"
#include "treefix/treefix/euler_tour.hpp"
#include "treefix/treefix/precision.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix {

struct BfsTreefixStats {
  std::size_t levels = 0;      // depth + 1 of the forest (0 when empty)
  std::size_t launches = 0;    // kernel launches of the call
  std::size_t host_reads = 0;  // times the host waited for the frontier's size
};

// The child lists of a host forest as the BFS reads them (the seed's CSR: children of v in
// increasing id, the roots as the children of a virtual vertex n), built on the host after
// validate_parent_array (InputError on a bad forest) and uploaded.
DeviceChildLists upload_child_lists(Runtime& runtime, const ParentArray& parent,
                                    Profile* profile = nullptr);

// result = rootfix / leaffix of weights over the forest of `children` (child lists of n vertices,
// n + 2 offsets). weights and result hold n values and are different arrays. Every operator.
// InputError when the child lists are not a forest (a vertex reached twice, or not at all);
// kernels are recorded under the "bfs treefix" phase.
template <class T>
void bfs_rootfix(Runtime& runtime, const DeviceChildLists& children, const DeviceArray<T>& weights,
                 DeviceArray<T>& result, Op op, bool exclusive = false, Profile* profile = nullptr,
                 BfsTreefixStats* stats = nullptr, Precision precision = Precision::accurate);
template <class T>
void bfs_leaffix(Runtime& runtime, const DeviceChildLists& children, const DeviceArray<T>& weights,
                 DeviceArray<T>& result, Op op, bool exclusive = false, Profile* profile = nullptr,
                 BfsTreefixStats* stats = nullptr, Precision precision = Precision::accurate);

}  // namespace treefix
