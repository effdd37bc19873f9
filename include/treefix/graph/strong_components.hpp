#pragma once
// Strongly connected components of a directed graph on the device (kernels/graph/scc.cl):
// signatures propagated both ways with trimming, after ECL-SCC (Alabandi & Burtscher). Every
// vertex learns the largest vertex that reaches it and the largest it reaches; where the two are
// the same vertex x, the vertex lies in x's component. Vertices without a live in-arc or out-arc
// are components of their own (trimming), and arcs between vertices whose signatures differ are
// dropped (no component spans them); rounds repeat on what is left, each assigning at least one
// component per group of equal signatures. The labels do not depend on timing.
//
// Cost: per round, a trim pass and as many propagation sweeps over the live arcs as the longest
// chain of increasing signatures needs (about the graph's diameter on a first round); few rounds
// on web and social graphs, where trimming and the first round settle most vertices.
// Sizes: vertices below 2^31 - 1, arcs below 2^31 (the arc list's indices are int; CapacityError
// beyond). Memory: 16 bytes per arc (two arc lists) and 18 per vertex.
#include <cstddef>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/graph/device_graph.hpp"

namespace treefix {

struct StrongComponents {
  DeviceArray<vertex_t> label;  // the smallest vertex of v's strongly connected component
  std::size_t count = 0;        // number of components
  std::size_t rounds = 0;       // rounds of trimming, propagation and settling
  std::size_t sweeps = 0;       // propagation sweeps in all
};

// The components of the graph as its arcs stand (rows without repeats, as DeviceGraph holds
// them; self loops and repeats are harmless). An undirected graph's are its connected components.
StrongComponents strong_components(Runtime& runtime, const DeviceGraph& graph,
                                   Profile* profile = nullptr);

}  // namespace treefix
