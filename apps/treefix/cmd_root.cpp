// treefix root: roots an unrooted forest given as an edge list, or in any graph format
// (graph/graph_io.hpp), by the Euler-tour technique on the device, and writes its parent array in
// the tree format.
#include <iostream>

#include "command.hpp"
#include "treefix/core/output_file.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/core/text_io.hpp"
#include "treefix/graph/connectivity.hpp"
#include "treefix/graph/graph_io.hpp"
#include "treefix/graph/rooting.hpp"
#include "treefix/graph/spanning_forest.hpp"
#include "treefix/treefix/euler_tour.hpp"
#include "treefix/treefix/tree_io.hpp"

namespace treefix::cli {
namespace {

struct RootArgs {
  std::string edges, output, device;
  GraphFormat format = GraphFormat::automatic;
  ListRankMethod list_rank = ListRankMethod::ruling_set;
  std::int64_t vertices = -1;  // -1: not given (the option itself refuses negative counts)
  std::vector<std::int64_t> roots;
  bool stats = false;
};

void run_root(const RootArgs& args) {
  PhaseTimes phases;
  // The device first: the reader refuses a forest it cannot hold before allocating it, and
  // before reading at all when --vertices says how large it is.
  Runtime runtime = phases.measure("device setup", [&] { return Runtime(args.device); });
  GraphLimits limits;
  limits.device = &runtime;
  std::vector<std::size_t> lines;  // of each edge, for messages (edge lists only)
  const GraphFormat format =
      args.format == GraphFormat::automatic ? format_from_extension(args.edges) : args.format;
  EdgeList forest;
  if (format == GraphFormat::edges) {  // every edge as written: repeats and loops are reported
    forest = phases.measure(
        "read", [&] { return read_edge_list_strict(args.edges, args.vertices, &lines, limits); });
  } else {  // another graph format: its undirected edges
    GraphReadOptions read;
    read.format = format;
    read.limits = limits;
    read.phases = &phases;
    forest = undirected_edges(read_graph(args.edges, read));
    if (args.vertices >= 0) {
      if (static_cast<std::size_t>(args.vertices) < forest.vertices)
        throw InputError("--vertices " + std::to_string(args.vertices) + ": " + args.edges +
                         " has " + std::to_string(forest.vertices) + " vertices");
      forest.vertices = static_cast<std::size_t>(args.vertices);
    }
    require_forest_fits(limits, args.edges, forest.vertices, forest.edges());
  }
  RootingOptions options;
  for (auto r : args.roots) {
    if (r < 0 || r >= static_cast<std::int64_t>(forest.vertices))
      throw InputError("--root " + std::to_string(r) + " is not a vertex (there are " +
                       std::to_string(forest.vertices) + ", ids 0.." +
                       std::to_string(static_cast<std::int64_t>(forest.vertices) - 1) + ")");
    options.roots.push_back(static_cast<vertex_t>(r));
  }
  options.list_rank.method = args.list_rank;
  ParentArray parent;
  try {
    parent = phases.measure("rooting", [&] { return root_forest(runtime, forest, options); });
  } catch (const EdgeListError& e) {
    const std::string where = e.edge_index() < lines.size()
                                  ? args.edges + ":" + std::to_string(lines[e.edge_index()])
                                  : args.edges;
    throw InputError(where + ": " + e.what());
  }
  phases.measure("write", [&] {
    write_output(args.output, [&](std::ostream& out) { write_tree(out, parent); });
  });
  if (args.stats) phases.print(std::cerr, "treefix root");
}

void setup_root(CLI::App& app) {
  auto args = std::make_shared<RootArgs>();
  auto* command = add_command(
      app, "root", "Root an unrooted forest (edge list) on the device; write its parent array",
      args, run_root);
  command
      ->add_option("--edges", args->edges,
                   "the forest: an edge list ('u v' per line, 0-based, # comments), or a graph "
                   "file (.mtx, .graph, .npz, .csr: its undirected edges)")
      ->required();
  add_enum_option(command, "--format", args->format, "forest file format (auto: by extension)");
  command
      ->add_option("--vertices", args->vertices,
                   "number of vertices (default: largest id + 1; the rest are isolated)")
      ->check(CLI::Range(std::int64_t(0), std::int64_t(INT32_MAX)));
  command->add_option(
      "--root", args->roots,
      "root of its tree (repeatable, one per tree; default: each tree's smallest id)");
  add_output_option(command, args->output, "parent array file");
  add_enum_option(command, "--list-rank", args->list_rank, "list-ranking method");
  add_stats_option(command, args->stats);
  add_device_option(command, args->device);
}

TREEFIX_COMMAND("root", setup_root);

}  // namespace
}  // namespace treefix::cli
