#pragma once
// What `treefix info` and `rst`/`root --stats` say about a forest or a graph: sizes, depth,
// degrees, components. Computed on the host in O(n + m): a summary is asked for once per command,
// beside work that is larger.
#include <cstddef>
#include <ostream>
#include <vector>

#include "treefix/graph/csr.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix::cli {

struct DegreeStats {
  std::size_t min = 0, max = 0;
  double mean = 0;
};

struct ForestSummary {
  std::size_t vertices = 0, roots = 0, leaves = 0;
  std::size_t depth = 0;            // edges on the longest root-to-leaf path (0: no edges)
  DegreeStats children;             // children per vertex (over all vertices)
  std::vector<std::size_t> levels;  // levels[d]: vertices at depth d
};
// `parent` must be a valid forest (validate_parent_array).
ForestSummary summarize_forest(const ParentArray& parent);

struct GraphSummary {
  std::size_t vertices = 0, arcs = 0, components = 0, isolated = 0, largest_component = 0;
  bool undirected = false;
  DegreeStats out_degree;
};
// Components are weakly connected (arcs taken both ways).
GraphSummary summarize_graph(const Csr& graph);

// "components 3, depth 17" for --stats lines.
void print_forest_line(std::ostream& out, const ForestSummary& summary);

}  // namespace treefix::cli
