// treefix bfs: breadth-first search of a graph file on the device; depths and a BFS tree out.
#include <iostream>

#include <algorithm>
#include <memory>

#include "command.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/output_file.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/core/text_io.hpp"
#include "treefix/core/value_format.hpp"
#include "treefix/graph/bfs.hpp"
#include "treefix/graph/graph_io.hpp"
#include "treefix/treefix/tree_io.hpp"

namespace treefix::cli {
namespace {

struct BfsCommand {
  std::string graph, output, parents, device;
  GraphFormat format = GraphFormat::automatic;
  std::int64_t source = 0;
  bool directed = false, check = false, stats = false, top_down = false;
};

void run_bfs(const BfsCommand& c) {
  PhaseTimes phases;
  // The device first: the reader refuses a graph it cannot hold before allocating it.
  Runtime runtime = phases.measure("device setup", [&] { return Runtime(c.device); });
  GraphReadOptions read;
  read.format = c.format;
  read.edges_directed = c.directed;
  read.limits.device = &runtime;
  read.phases = &phases;
  Csr graph = read_graph(c.graph, read);
  if (c.source < 0 || static_cast<std::size_t>(c.source) >= graph.vertices())
    throw InputError("--source " + std::to_string(c.source) + " is not a vertex of " + c.graph +
                     " (" + std::to_string(graph.vertices()) + " vertices, numbered from 0)");
  Profile profile;
  BfsOptions options;
  options.profile = &profile;
  options.direction_optimizing = !c.top_down;
  BfsResult r = phases.measure(
      "bfs", [&] { return bfs(runtime, graph, static_cast<vertex_t>(c.source), options); });
  if (c.check) {
    BfsResult ref = bfs_reference(graph, static_cast<vertex_t>(c.source));
    std::string problem =
        bfs_tree_problem(graph, static_cast<vertex_t>(c.source), ref.depth, r.depth, r.parent);
    if (!problem.empty()) throw Error("BFS check failed: " + problem);
  }
  if (c.stats) {
    std::size_t reached = 0;
    for (vertex_t d : r.depth) reached += d >= 0;
    std::cerr << "bfs: " << graph.vertices() << " vertices, " << graph.edges() << " arcs, "
              << reached << " reached in " << r.levels << " levels, " << r.kernel_launches
              << " kernel launches (" << r.bottom_up_levels << " bottom-up levels), "
              << profile.milliseconds("bfs") << " ms of kernels" << (c.check ? ", checked" : "")
              << "\n";
  }
  phases.measure("write", [&] {
    write_output(c.output, [&](std::ostream& out) { write_values(out, r.depth); });
    if (!c.parents.empty())
      write_output(c.parents, [&](std::ostream& out) { write_tree(out, r.parent); });
  });
  if (c.stats) phases.print(std::cerr, "treefix bfs");
}

void setup_bfs(CLI::App& app) {
  auto c = std::make_shared<BfsCommand>();
  auto* command = add_command(
      app, "bfs", "Breadth-first search of a graph: depth per vertex (-1 unreachable), BFS tree", c,
      run_bfs);
  command
      ->add_option("--graph", c->graph,
                   "graph file: .mtx (Matrix Market), .graph (METIS), .npz (SciPy CSR), .csr "
                   "(raw CSR binary), else edge list")
      ->required();
  command->add_option("--source", c->source, "source vertex, 0-based (default 0)");
  add_output_option(command, c->output, "depths, one per line in vertex order");
  command->add_option("--parents", c->parents,
                      "write the BFS tree in the tree format (n, then n parents; -1 for the source "
                      "and unreachable vertices)");
  add_enum_option(command, "--format", c->format, "graph format (auto: by extension)");
  command->add_flag("--directed", c->directed, "edge lists: 'u v' is the arc u -> v only");
  command->add_flag("--top-down", c->top_down,
                    "never expand a level bottom-up (by default wide levels of undirected graphs "
                    "are, as in Beamer's direction-optimising BFS)");
  command->add_flag("--check", c->check, "verify against the sequential BFS (fails if different)");
  command->add_flag("--stats", c->stats,
                    "print levels, launches, kernel time and the wall time of every phase "
                    "(reading included) to stderr");
  add_device_option(command, c->device);
}

TREEFIX_COMMAND("bfs", setup_bfs);

}  // namespace
}  // namespace treefix::cli
