#pragma once
// Rooting on the device: unrooted forests and graphs in, parent arrays and Euler tours out.
//
//   root_forest             an undirected forest (edge list) -> parent array, by the Euler-tour
//                           technique (Tarjan–Vishkin): arcs sorted by source on the device, tour
//                           successors, each tour cut at its root, list ranking (listrank.hpp),
//                           parent = the endpoint whose arc comes first in the tour.
//   connected_components    hooking + pointer jumping (min-label Shiloach–Vishkin); labels are the
//                           smallest vertex of each component, and the hooking edges are returned
//                           as a spanning forest.
//   rooted_spanning_forest  a graph -> parent array of a spanning forest: connectivity, then
//                           root_forest on the hooking edges (method euler; no BFS, so the number
//                           of steps does not grow with the diameter).
//   device_euler_tour       parent array -> open/close positions on the device, identical to the
//                           host's build_euler_tour (roots in increasing id, children in
//                           increasing id), ready for the Euler-tour treefix (DeviceEulerTour).
//
// Roots: by default every tree is rooted at its smallest vertex; options.roots names the root of
// some trees (at most one per tree). Isolated vertices are one-vertex trees.
// Sizes: vertices and 2 x edges below 2^31 (32-bit device indices); CapacityError beyond.
// Determinism: results do not depend on timing (atomic choices are all minima).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/error.hpp"
#include "treefix/graph/csr.hpp"
#include "treefix/primitives/listrank.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/treefix/tree.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix {

// An undirected edge list: edge i joins source[i] and target[i].
struct EdgeList {
  std::size_t vertices = 0;
  std::vector<vertex_t> source, target;
  std::size_t edges() const { return source.size(); }
};

// Bad edge lists name the offending edge; edge_index() lets a reader turn it into a file line.
class EdgeListError : public InputError {
 public:
  EdgeListError(std::size_t edge_index, const std::string& message)
      : InputError(message), edge_index_(edge_index) {}
  std::size_t edge_index() const noexcept { return edge_index_; }

 private:
  std::size_t edge_index_;
};

// Reads "u v" per line, 0-based ids, '#' comments (TokenStream). vertices < 0: largest id + 1.
// Malformed or out-of-range ids fail with "path:line: ..."; lines[i] is the line of edge i.
EdgeList read_edge_list_strict(const std::string& path, std::int64_t vertices = -1,
                               std::vector<std::size_t>* lines = nullptr);

struct RootingOptions {
  std::vector<vertex_t> roots;  // at most one per tree; trees not named use their smallest vertex
  ListRankOptions list_rank;    // method and stride of the list ranking; its profile is ignored
  Profile* profile = nullptr;   // every transfer and kernel ("sort", "tour", "listrank", ...)
};

// Host in, host out. Throws EdgeListError for an id out of range, a self loop, a duplicate edge
// or a cycle ("edge 7 (3 5) closes a cycle: ..."), InputError for bad roots.
ParentArray root_forest(Runtime& runtime, const EdgeList& forest,
                        const RootingOptions& options = {});
// Device in, device out: n vertices, edges (source, target) already on the device.
DeviceArray<vertex_t> root_forest(Runtime& runtime, std::size_t vertices,
                                  const DeviceArray<vertex_t>& source,
                                  const DeviceArray<vertex_t>& target,
                                  const RootingOptions& options = {});

struct Components {
  DeviceArray<vertex_t> label;  // smallest vertex id of v's component
  std::size_t count = 0;        // number of components
  // The hooking edges: a spanning forest (vertices - count edges), in no particular order.
  DeviceArray<vertex_t> forest_source, forest_target;
};
Components connected_components(Runtime& runtime, std::size_t vertices, const cl::Buffer& source,
                                const cl::Buffer& target, std::size_t edges,
                                Profile* profile = nullptr);

// euler: connectivity + Euler-tour rooting (steps grow with log n, not with the diameter);
// bfs: BFS trees (bfs.hpp) from the root, then, if vertices are left, from every component's root.
enum class RstMethod { euler, bfs };
const char* to_string(RstMethod method);
RstMethod parse_rst_method(const std::string& name);  // "euler|bfs"

struct RstOptions {
  RstMethod method = RstMethod::euler;
  std::optional<vertex_t> root;  // root of its component; the others use their smallest vertex
  ListRankOptions list_rank;
  Profile* profile = nullptr;
};

// A rooted spanning forest of a graph (CSR, both directions stored; self loops and repeated arcs
// are harmless): one tree per component. The graph is taken as undirected (method bfs follows
// arcs, so give it symmetric graphs).
ParentArray rooted_spanning_forest(Runtime& runtime, const Csr& graph, const RstOptions& options = {});

// Open/close positions of a forest whose parent array is on the device (n vertices, valid forest:
// the caller guarantees it, e.g. root_forest's output). Positions are int (2n < 2^31).
DeviceEulerTour device_euler_tour(Runtime& runtime, const cl::Buffer& parent, std::size_t n,
                                  const ListRankOptions& list_rank = {}, Profile* profile = nullptr);
// The same from the host; validates the parent array first (InputError on a cycle or bad index).
DeviceEulerTour device_euler_tour(Runtime& runtime, const ParentArray& parent,
                                  const ListRankOptions& list_rank = {}, Profile* profile = nullptr);

}  // namespace treefix
