// treefix rst: a rooted spanning forest of a graph on the device (connectivity + Euler-tour
// rooting, BFS trees or PR-RST path reversal), written as a parent array in the tree format.
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

struct RstArgs {
  std::string graph, output, device;
  GraphFormat format = GraphFormat::automatic;
  RstMethod method = RstMethod::euler;
  ListRankMethod list_rank = ListRankMethod::ruling_set;
  std::int64_t root = -1;
  bool has_root = false, stats = false;
};

void run_rst(const RstArgs& args) {
  RstOptions options;
  options.method = args.method;
  options.list_rank.method = args.list_rank;
  PhaseTimes phases;
  // The device first: the reader refuses a graph it cannot hold before allocating it.
  Runtime runtime = phases.measure("device setup", [&] { return Runtime(args.device); });
  GraphReadOptions read_options;
  read_options.format = args.format;
  read_options.limits.device = &runtime;
  read_options.phases = &phases;
  Csr graph = read_graph(args.graph, read_options);
  if (args.has_root) {
    if (args.root < 0 || args.root >= static_cast<std::int64_t>(graph.vertices()))
      throw InputError("--root " + std::to_string(args.root) + " is not a vertex of " + args.graph +
                       " (" + std::to_string(graph.vertices()) + " vertices)");
    options.root = static_cast<vertex_t>(args.root);
  }
  ParentArray parent = phases.measure(
      "spanning forest", [&] { return rooted_spanning_forest(runtime, graph, options); });
  phases.measure("write", [&] {
    write_output(args.output, [&](std::ostream& out) { write_tree(out, parent); });
  });
  if (args.stats) phases.print(std::cerr, "treefix rst");
}

void setup_rst(CLI::App& app) {
  auto args = std::make_shared<RstArgs>();
  auto* command = add_command(
      app, "rst", "Rooted spanning forest of a graph on the device; write its parent array", args,
      run_rst);
  command
      ->add_option("--graph", args->graph,
                   "undirected graph: Matrix Market (.mtx), METIS (.graph), SciPy CSR (.npz), raw "
                   "CSR (.csr) or edge list ('u v')")
      ->required();
  add_enum_option(command, "--format", args->format, "graph format (auto: by extension)");
  command->add_option("--root", args->root, "root of its component (others: smallest id)")
      ->each([args](const std::string&) { args->has_root = true; });
  add_enum_option(command, "--method", args->method,
                  "euler: connectivity + Euler-tour rooting; bfs: BFS trees; pr: path reversal "
                  "(PR-RST)");
  add_output_option(command, args->output, "parent array file");
  add_enum_option(command, "--list-rank", args->list_rank, "list-ranking method");
  add_stats_option(command, args->stats);
  add_device_option(command, args->device);
}

TREEFIX_COMMAND("rst", setup_rst);

}  // namespace
}  // namespace treefix::cli
