#pragma once
// Rooted spanning forests of graphs: one tree per component, as a parent array.
//
//   RstMethod::euler  connectivity (treefix/graph/connectivity.hpp), then root_forest on the
//                     hooking edges (treefix/graph/rooting.hpp): the number of steps grows with
//                     log n, not with the diameter.
//   RstMethod::bfs    BFS trees (treefix/graph/bfs.hpp) from the root, then, if vertices are left,
//                     from every component's smallest vertex.
//   RstMethod::path_reversal  PR-RST (Sahu & Donur): rounds of graft, re-root by path reversal
//                     and shortcut by pointer jumping, O(log n) rounds (docs/design/rooting.md).
// Every method roots each tree at its component's smallest vertex, except options.root's.
#include <optional>

#include "treefix/core/names.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/graph/csr.hpp"
#include "treefix/graph/device_graph.hpp"
#include "treefix/primitives/listrank.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix {

enum class RstMethod { euler, bfs, path_reversal };
TREEFIX_ENUM_NAMES(RstMethod, "spanning-tree method", {RstMethod::euler, "euler"},
                   {RstMethod::bfs, "bfs"}, {RstMethod::path_reversal, "pr", "path-reversal"});

struct RstOptions {
  RstMethod method = RstMethod::euler;
  std::optional<vertex_t> root;  // root of its component; the others use their smallest vertex
  ListRankOptions list_rank;
  Profile* profile = nullptr;
};

// A rooted spanning forest of a graph (CSR, both directions stored; self loops and repeated arcs
// are harmless). The graph is taken as undirected (method bfs follows arcs, so give it symmetric
// graphs). Sizes: vertices and arcs / 2 below 2^31.
ParentArray rooted_spanning_forest(Runtime& runtime, const Csr& graph,
                                   const RstOptions& options = {});
// The same on a graph already on the device: `device_graph` holds `graph` (uploaded by the
// caller, who keeps it for other calls); nothing is uploaded again.
ParentArray rooted_spanning_forest(Runtime& runtime, const Csr& graph,
                                   const DeviceGraph& device_graph, const RstOptions& options = {});

}  // namespace treefix
