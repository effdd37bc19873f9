// treefix components: connected components of a graph on the device (one device, or several
// ranks under mpirun: docs/distributed.md); a label per vertex out, the count printed.
#include <iostream>

#include "distributed_run.hpp"
#include "graph_input.hpp"
#include "treefix/graph/connectivity.hpp"
#include "treefix/graph/device_graph.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/io/value_format.hpp"

namespace treefix::cli {
namespace {

struct ComponentsArgs {
  GraphInput graph;
  std::string output, device;
  bool stats = false;
};

void run_components(const ComponentsArgs& args, PhaseTimes& phases) {
  if (runs_distributed())
    return run_distributed_components(args.graph, args.output, args.device, args.stats, phases);
  OutputFiles outputs({args.output});
  // The device first: the reader refuses a graph it cannot hold before allocating it.
  Runtime& runtime =
      phases.measure("device setup", [&]() -> Runtime& { return kept_runtime(args.device); });
  Csr graph = args.graph.read(&runtime, &phases);
  // Components of a directed graph are those of its undirected graph (every arc both ways).
  if (!graph.undirected) graph = phases.measure("symmetrize", [&] { return symmetrized(graph); });
  std::vector<vertex_t> label;
  std::size_t count = 0;
  phases.measure("components", [&] {
    DeviceGraph device_graph(runtime, graph);
    Components cc = connected_components(runtime, device_graph);
    label = cc.label.download(runtime);
    count = cc.count;
  });
  phases.measure("write", [&] {
    write_output(args.output, [&](std::ostream& out) { write_values(out, label); });
    outputs.commit();
  });
  (args.output.empty() || args.output == "-" ? std::cerr : std::cout) << count << " components\n";
}

void setup_components(CLI::App& app) {
  auto [command, args] = add_timed_command(
      app, "components",
      "Connected components of a graph (directed arcs taken both ways): per vertex the smallest "
      "vertex of its component",
      run_components);
  args->graph.add_to(command, "--graph", graph_file_help, true)->required();
  add_output_option(command, args->output,
                    "labels, one per line in vertex order (the count goes to stdout, or to "
                    "stderr when the labels do)");
  add_stats_option(command, args->stats);
  add_device_option(command, args->device);
}

TREEFIX_COMMAND("components", setup_components);

}  // namespace
}  // namespace treefix::cli
