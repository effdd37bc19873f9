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
//   RstMethod::automatic  BFS from the root while it stays cheaper than connectivity + Euler:
//                     the search is given a level budget, rst_bfs_level_budget(), set by the
//                     device and the graph's size; a graph whose BFS passes it (high diameter:
//                     BFS's steps grow with the diameter, connectivity's with log n) or that BFS
//                     from the root does not cover (several components) goes on with euler on the
//                     same device graph. A BFS tree, where it wins, is also the shallowest.
// Every method roots each tree at its component's smallest vertex, except options.root's.
#include <optional>

#include "treefix/core/names.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/graph/csr.hpp"
#include "treefix/graph/device_graph.hpp"
#include "treefix/primitives/listrank.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix {

enum class RstMethod { euler, bfs, path_reversal, automatic };
TREEFIX_ENUM_NAMES(RstMethod, "spanning-tree method", {RstMethod::euler, "euler"},
                   {RstMethod::bfs, "bfs"}, {RstMethod::path_reversal, "pr", "path-reversal"},
                   {RstMethod::automatic, "auto"});

struct RstOptions {
  RstMethod method = RstMethod::euler;
  std::optional<vertex_t> root;  // root of its component; the others use their smallest vertex
  ListRankOptions list_rank;
  Profile* profile = nullptr;
  RstMethod* chosen = nullptr;  // when set, receives the method that built the forest (auto)
};

// The BFS levels that cost about what connectivity + Euler costs on a graph of n vertices, on this
// device (its kind and whether BFS runs its medium levels behind a grid-wide barrier): the
// budget of RstMethod::automatic. The calibration and its measurements are in docs/design/rooting.md.
std::size_t rst_bfs_level_budget(const Runtime& runtime, std::size_t n);

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
