// treefix rst: a rooted spanning forest of a graph on the device (connectivity + Euler-tour
// rooting, BFS trees or PR-RST path reversal), written as a parent array in the tree format.
#include <iostream>

#include "graph_input.hpp"
#include "treefix/core/output_file.hpp"
#include "treefix/graph/spanning_forest.hpp"
#include "treefix/treefix/tree_io.hpp"

namespace treefix::cli {
namespace {

struct RstArgs {
  GraphInput graph;
  std::string output, device;
  RstMethod method = RstMethod::euler;
  ListRankMethod list_rank = ListRankMethod::ruling_set;
  std::int64_t root = -1;  // -1: not given (the option refuses negative ids)
  bool stats = false;
};

void run_rst(const RstArgs& args) {
  OutputFiles outputs({args.output});
  RstOptions options;
  options.method = args.method;
  options.list_rank.method = args.list_rank;
  PhaseTimes phases;
  // The device first: the reader refuses a graph it cannot hold before allocating it.
  Runtime runtime = phases.measure("device setup", [&] { return Runtime(args.device); });
  Csr graph = args.graph.read(&runtime, &phases);
  if (args.root >= 0)
    options.root = vertex_option("--root", args.root, graph.vertices(), args.graph.path);
  ParentArray parent = phases.measure(
      "spanning forest", [&] { return rooted_spanning_forest(runtime, graph, options); });
  phases.measure("write", [&] {
    write_tree_file(args.output, parent);
    outputs.commit();
  });
  if (args.stats) phases.print(std::cerr, "treefix rst");
}

void setup_rst(CLI::App& app) {
  auto args = std::make_shared<RstArgs>();
  auto* command = add_command(
      app, "rst", "Rooted spanning forest of a graph on the device; write its parent array", args,
      run_rst);
  args->graph.add_to(command, "--graph", std::string("undirected ") + graph_file_help, false)
      ->required();
  command->add_option("--root", args->root, "root of its component (others: smallest id)")
      ->transform(integer_in(0, INT32_MAX));
  add_enum_option(command, "--method", args->method,
                  "euler: connectivity + Euler-tour rooting; bfs: BFS trees; pr: path reversal "
                  "(PR-RST)");
  add_tree_output_options(command, args->output, args->list_rank, args->stats, args->device);
}

TREEFIX_COMMAND("rst", setup_rst);

}  // namespace
}  // namespace treefix::cli
