// The graph commands' shared input (graph_input.hpp).
#include "graph_input.hpp"

#include <cstdint>
#include <iostream>
#include <sstream>

#include "output_format.hpp"
#include "summary.hpp"
#include "treefix/core/error.hpp"
#include "treefix/graph/device_matrix.hpp"
#include "treefix/graph/edge_list.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/treefix/tree_io.hpp"

namespace treefix::cli {

CLI::Option* GraphInput::add_to(CLI::App* command, const std::string& option,
                                const std::string& help, bool directed_option) {
  CLI::Option* file = command->add_option(option, path, help);
  add_enum_option(command, "--format", format, "graph format (auto: by extension)");
  if (directed_option)
    command->add_flag("--directed,!--undirected", directed,
                      "edge lists: 'u v' is the arc u -> v only (the default, as entry (u, v) of "
                      "a SciPy matrix or a Matrix Market general file); --undirected: both ways");
  return file;
}

GraphFormat GraphInput::chosen_format() const {
  return format == GraphFormat::automatic ? format_from_extension(path) : format;
}

bool kronecker_spec(const std::string& spec, unsigned& scale, unsigned& edge_factor) {
  if (spec.rfind("kronecker:", 0) != 0) return false;
  std::istringstream in(spec.substr(10));
  char colon = 0;
  edge_factor = 16;
  if (!(in >> scale) || (in >> colon && (colon != ':' || !(in >> edge_factor))) || !in.eof() ||
      scale < 1 || scale > 30 || edge_factor < 1 || edge_factor > (1u << 16))
    throw InputError("--graph " + spec + ": expected kronecker:S or kronecker:S:EF, scale S in " +
                     "1..30, edge factor EF in 1..65536");
  return true;
}

Csr GraphInput::read(const Runtime* device, PhaseTimes* phases) const {
  unsigned scale = 0, edge_factor = 0;
  if (kronecker_spec(path, scale, edge_factor)) {
    GraphLimits limits;
    limits.device = device;
    auto make = [&] { return generate::kronecker(scale, edge_factor, 1, limits); };
    return phases ? phases->measure("generate", make) : make();
  }
  GraphReadOptions read;
  read.format = format;
  read.edges_directed = directed;
  read.limits.device = device;
  read.phases = phases;
  return read_graph(path, read);
}

DeviceGraph GraphInput::read_device(Runtime& runtime, bool undirected, PhaseTimes& phases) const {
  GraphReadOptions read;
  read.format = format;
  read.edges_directed = directed;
  read.limits.device = &runtime;
  read.phases = &phases;
  unsigned scale = 0, edge_factor = 0;
  const bool generated = kronecker_spec(path, scale, edge_factor);
  const GraphFormat chosen = generated ? GraphFormat::automatic : chosen_format();
  if (generated || (chosen != GraphFormat::edges && chosen != GraphFormat::mtx)) {
    // A generated graph, or a CSR format read as its reader leaves it.
    Csr graph = generated ? this->read(&runtime, &phases) : read_graph(path, read);
    return phases.measure("device graph", [&] {
      DeviceGraph on_device(runtime, graph);
      return undirected ? undirected_graph(runtime, on_device) : on_device;
    });
  }
  // The entries as the file lists them: the device sorts and merges them.
  std::vector<vertex_t> row, column;
  std::size_t n = 0;
  bool mirrored = false;  // the file stands for its entries and their mirror images
  if (chosen == GraphFormat::edges) {
    // The pairs are at most the file's size; the graph's needs are checked once n is known
    // (the strict reader's own check is for forests).
    GraphLimits pairs_only;
    pairs_only.host_bytes = UINT64_MAX;
    EdgeList edges = phases.measure("read: parse", [&] {
      return read_edge_list_strict(path, -1, nullptr, pairs_only);
    });
    require_graph_fits(read.limits, path, edges.vertices,
                       (directed ? 1 : 2) * std::uint64_t(edges.edges()),
                       8 * std::uint64_t(edges.edges()));
    n = edges.vertices;
    row = std::move(edges.source);
    column = std::move(edges.target);
    mirrored = !directed;
  } else {
    MatrixEntries entries = read_matrix_market_entries(path, read);
    n = entries.n;
    row = std::move(entries.row);
    column = std::move(entries.column);
    mirrored = entries.symmetric;
  }
  return phases.measure("device graph", [&] {
    HostMatrix matrix;
    matrix.layout = SparseLayout::coo;
    matrix.n = n;
    matrix.rows = {row.data(), row.size(), false};
    matrix.indices = {column.data(), column.size(), false};
    matrix.what = path;
    DeviceGraph graph = pattern_graph(runtime, upload_matrix(runtime, matrix));
    return undirected || mirrored ? undirected_graph(runtime, graph) : graph;
  });
}

void RootedForestOutput::add_to(CLI::App* command, bool& stats) {
  this->stats = &stats;
  add_output_option(command, path, "the parent array: text (n, then n parents), or .npy")
      ->check(written_as({OutputFormat::npy}));
  add_enum_option(command, "--list-rank", list_rank, "list-ranking method");
  add_stats_option(command, stats);
  add_device_option(command, device);
}

void RootedForestOutput::write(const ParentArray& parent, OutputFiles& outputs,
                               PhaseTimes& phases) const {
  if (stats && *stats) {
    std::cerr << "forest: ";
    print_forest_line(std::cerr, summarize_forest(parent));
    std::cerr << "\n";
  }
  phases.measure("write", [&] {
    write_tree_file(path, parent);
    outputs.commit();
  });
}

vertex_t vertex_option(const char* option, std::int64_t id, std::size_t vertices,
                       const std::string& graph) {
  if (id < 0 || static_cast<std::size_t>(id) >= vertices)
    throw InputError(std::string(option) + " " + std::to_string(id) + " is not a vertex of " +
                     graph + " (" + std::to_string(vertices) + " vertices" +
                     (vertices ? ", ids 0.." + std::to_string(vertices - 1) : std::string()) + ")");
  return static_cast<vertex_t>(id);
}

}  // namespace treefix::cli
