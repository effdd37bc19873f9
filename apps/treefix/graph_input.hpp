#pragma once
// What the graph commands (bfs, rst, root, convert --graph) share: the graph file with its
// --format (and --directed for edge lists), read after the device is set up so that a graph the
// device cannot hold is refused before it is allocated, and vertex ids given as options.
#include <string>

#include "command.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/graph/device_graph.hpp"
#include "treefix/graph/graph_io.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/primitives/listrank.hpp"

namespace treefix::cli {

struct GraphInput {
  std::string path;
  GraphFormat format = GraphFormat::automatic;
  // Edge lists: "u v" is the arc u -> v, as entry (u, v) of a SciPy matrix or a Matrix Market
  // "general" file (and as treefix.Graph and scipy.sparse.csgraph default to directed=True);
  // --undirected adds v -> u.
  bool directed = true;

  // `option` FILE (returned, to be made required) and --format; --directed/--undirected too when
  // `directed_option`.
  CLI::Option* add_to(CLI::App* command, const std::string& option, const std::string& help,
                      bool directed_option);
  // The format to read: --format, else the path's extension.
  GraphFormat chosen_format() const;
  // The graph, checked against host memory and `device` (if any); reading phases into `phases`.
  // "kronecker:S[:EF]" generates Graph500's Kronecker graph instead (generate::kronecker, seed 1).
  Csr read(const Runtime* device, PhaseTimes* phases) const;
  // The graph on the device (graph/device_matrix.hpp): edge lists and Matrix Market files go as
  // their entries are, and are sorted, merged (and made undirected) there; the CSR formats (.npz,
  // .csr, .graph) as their readers leave them. undirected: every arc both ways, whatever the
  // file says. Phases "read: ..." and "device graph".
  DeviceGraph read_device(Runtime& runtime, bool undirected, PhaseTimes& phases) const;
};

// What the commands that compute a rooted forest on the device (root, rst) share: the parent
// array's output file, the device and the list ranking.
struct RootedForestOutput {
  std::string path, device;
  ListRankMethod list_rank = ListRankMethod::ruling_set;
  const bool* stats = nullptr;  // the command's --stats

  // --output (text, or .npy), --list-rank, --device; and --stats into `stats`.
  void add_to(CLI::App* command, bool& stats);
  // The parent array written and committed with the command's other outputs: the last phase.
  // With --stats, its component count and depth go to standard error first.
  void write(const ParentArray& parent, OutputFiles& outputs, PhaseTimes& phases) const;
};

// The graph file's help: the formats by extension.
inline constexpr const char* graph_file_help =
    "graph file: .mtx (Matrix Market), .graph (METIS), .npz (SciPy CSR), .csr (raw CSR binary), "
    "else an edge list ('u v' per line, 0-based); or kronecker:S[:EF], Graph500's Kronecker graph "
    "of 2^S vertices and EF edges a vertex (default 16), generated in place";

// "kronecker:S" or "kronecker:S:EF": true with the scale and edge factor; false for a file name.
// InputError for a malformed one (scale 1..30, edge factor 1..65536).
bool kronecker_spec(const std::string& spec, unsigned& scale, unsigned& edge_factor);

// `id`, given as `option`, as a vertex of a graph of `vertices` vertices read from `graph`;
// InputError "--source 9 is not a vertex of g.mtx (5 vertices, ids 0..4)" otherwise.
vertex_t vertex_option(const char* option, std::int64_t id, std::size_t vertices,
                       const std::string& graph);

}  // namespace treefix::cli
