#pragma once
// Tree surgery on the device: each edit returns a new forest, numbered in its own pre-order (as
// reading its Newick text back would number it), with each vertex's origin in the old tree.
//
//   prune(keep)       the subtree induced by the kept vertices (usually tips): their lca's and
//                     nothing else; a chain of merged branches becomes one branch whose length is
//                     the exact sum of theirs, rounded once, and the new root's length is its
//                     distance from the old root, so that every kept vertex keeps its root distance
//                     (DendroPy's retain_taxa). The kept set with the lca of every two of its
//                     vertices adjacent in pre-order is closed under lca, and in pre-order the
//                     parent of each is the lca of it and the one before it: one compaction, one
//                     batch of lca queries, another compaction, another batch.
//   reroot(x)         x becomes the root: the branches on the path from x up to the old root turn
//                     over; the new root takes the old root's own length; the old root, left with
//                     one child, is suppressed (its two branches merged, the sum rounded once)
//                     unless asked not to. The new pre-order is the Euler tour rotated to start at
//                     x (an ancestor of x is met at its close): one pass, one scan.
//   reroot on an edge a new root on x's branch at `distance` from x (default: the middle), the
//                     rest as above. ete3's set_outgroup, DendroPy's reroot_at_edge.
//   ladderize()       children ordered by their subtree sizes (ascending: smallest first),
//                     stable (ties keep their order), as DendroPy's ladderize: a stable sort of the
//                     child lists, then a rootfix of each vertex's offset among its siblings gives
//                     the new pre-order.
// Other trees of a forest stay as they are. Lengths move unchanged except where branches merge
// or split (one rounding each: |error| <= u·|result|, u = 2^-53).
#include <cstddef>
#include <optional>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/phylo/lca.hpp"
#include "treefix/phylo/path_lengths.hpp"
#include "treefix/treefix/newick.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix {

// The three arrays of an edited tree, on the host.
struct HostEditedTree {
  ParentArray parent;            // numbered in the new tree's pre-order
  std::vector<double> lengths;   // branch lengths
  std::vector<vertex_t> origin;  // the old vertex of each new one; -1 for a new root on an edge
};

// An edited tree, left on the device: a forest by construction, so that a DeviceTree takes its
// parent array as it is (DeviceTree(runtime, edited.parent, ParentCheck::known_forest): no
// upload, no validation pass). Host copies are made only when asked for.
struct EditedTree {
  DeviceArray<vertex_t> parent;  // numbered in the new tree's pre-order
  DeviceArray<double> lengths;   // branch lengths
  DeviceArray<vertex_t> origin;  // the old vertex of each new one; -1 for a new root on an edge
  std::size_t size() const { return parent.size(); }
  HostEditedTree download(Runtime& runtime) const;  // all three (blocking)
};

// The subtree induced by `keep` (vertex ids, any order, repeats allowed). lengths: the old tree's
// path lengths (for the merged branches). InputError for an empty set or a vertex out of range.
EditedTree prune(Runtime& runtime, DeviceTree& tree, const LcaIndex& index,
                 const PathLengths& lengths, const std::vector<vertex_t>& keep,
                 Profile* profile = nullptr);

struct RerootOptions {
  bool on_edge = false;                // a new root on the branch above the vertex
  std::optional<double> distance;      // on_edge: from the vertex (0 .. its length; default half)
  bool suppress_unifurcations = true;  // merge the old root away when it keeps one child
};
// The tree rerooted at `vertex` (or on its branch). lengths: n branch lengths on the device.
// InputError for a vertex out of range, an edge above a root, or a distance outside the branch.
EditedTree reroot(Runtime& runtime, DeviceTree& tree, const DeviceArray<double>& lengths,
                  vertex_t vertex, const RerootOptions& options = {}, Profile* profile = nullptr);

// Children ordered by subtree size, smallest first (ascending) or largest first.
EditedTree ladderize(Runtime& runtime, DeviceTree& tree, const DeviceArray<double>& lengths,
                     bool ascending = true, Profile* profile = nullptr);

// The lengths a tree without branch lengths is edited and measured by: 1 for every branch, 0 at
// the roots (so that path lengths count edges), made on the device from its parent array.
DeviceArray<double> edge_count_lengths(Runtime& runtime, DeviceTree& tree,
                                       Profile* profile = nullptr);

// The names of an edited tree's vertices, from the old tree's names through the origins ("" for
// a new vertex).
NodeNames names_of(const NodeNames& names, const std::vector<vertex_t>& origin);

}  // namespace treefix
