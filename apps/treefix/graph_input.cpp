// The graph commands' shared input (graph_input.hpp).
#include "graph_input.hpp"

#include <iostream>
#include <sstream>

#include "output_format.hpp"
#include "summary.hpp"
#include "treefix/core/error.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/treefix/tree_io.hpp"

namespace treefix::cli {

CLI::Option* GraphInput::add_to(CLI::App* command, const std::string& option,
                                const std::string& help, bool directed_option) {
  CLI::Option* file = command->add_option(option, path, help);
  add_enum_option(command, "--format", format, "graph format (auto: by extension)");
  if (directed_option)
    command->add_flag("--directed", directed, "edge lists: 'u v' is the arc u -> v only");
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
