// treefix rst: a rooted spanning forest of a graph on the device (connectivity + Euler-tour
// rooting, BFS trees or PR-RST path reversal), written as a parent array in the tree format.
#include <iostream>

#include "distributed_run.hpp"
#include "graph_input.hpp"
#include "treefix/core/error.hpp"
#include "treefix/graph/device_matrix.hpp"
#include "treefix/graph/spanning_forest.hpp"
#include "treefix/io/output_file.hpp"

namespace treefix::cli {
namespace {

struct RstArgs {
  GraphInput graph;
  RootedForestOutput rooted;
  RstMethod method = RstMethod::euler;
  std::int64_t root = -1;  // -1: not given (the option refuses negative ids)
  bool stats = false;
};

void run_rst(const RstArgs& args, PhaseTimes& phases) {
  if (runs_distributed())
    return run_distributed_rst(args.graph, args.rooted.path, args.rooted.device, args.method,
                               args.root, args.stats, phases);
  OutputFiles outputs({args.rooted.path});
  RstOptions options;
  options.method = args.method;
  options.list_rank.method = args.rooted.list_rank;
  // The device first: the reader refuses a graph it cannot hold before allocating it.
  Runtime& runtime = phases.measure("device setup",
                                    [&]() -> Runtime& { return kept_runtime(args.rooted.device); });
  // Both directions of every arc, sorted and merged on the device.
  const DeviceGraph graph = args.graph.read_device(runtime, true, phases);
  if (args.root >= 0)
    options.root = vertex_option("--root", args.root, graph.vertices(), args.graph.path);
  ParentArray parent = phases.measure("spanning forest", [&] {
    return rooted_spanning_forest(runtime, download_graph(runtime, graph), graph, options);
  });
  args.rooted.write(parent, outputs, phases);
}

void setup_rst(CLI::App& app) {
  auto [command, args] = add_timed_command(
      app, "rst", "Rooted spanning forest of a graph on the device; write its parent array",
      run_rst);
  args->graph.add_to(command, "--graph", std::string("undirected ") + graph_file_help, false)
      ->required();
  args->graph.directed = false;  // every arc both ways, on one device or over several ranks
  command->add_option("--root", args->root, "root of its component (others: smallest id)")
      ->transform(integer_in(0, INT32_MAX));
  add_enum_option(command, "--method", args->method,
                  "euler: connectivity + Euler-tour rooting; bfs: BFS trees; pr: path reversal "
                  "(PR-RST); auto: BFS while its levels stay within the device's budget for "
                  "the graph's size, else euler");
  args->rooted.add_to(command, args->stats);
}

TREEFIX_COMMAND("rst", setup_rst);

}  // namespace
}  // namespace treefix::cli
