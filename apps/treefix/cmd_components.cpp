// treefix components: connected components of a graph on the device (one device, or several
// ranks under mpirun: docs/distributed.md), or with --strong its strongly connected components;
// a label per vertex out, the count printed.
#include <iostream>

#include "distributed_run.hpp"
#include "graph_input.hpp"
#include "output_format.hpp"
#include "treefix/core/error.hpp"
#include "treefix/graph/connectivity.hpp"
#include "treefix/graph/strong_components.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/treefix/tree_io.hpp"

namespace treefix::cli {
namespace {

struct ComponentsArgs {
  GraphInput graph;
  std::string output, device;
  bool stats = false, strong = false;
};

void run_components(const ComponentsArgs& args, PhaseTimes& phases) {
  if (runs_distributed()) {
    if (args.strong)
      throw InputError("components --strong runs on one device, not over several ranks");
    return run_distributed_components(args.graph, args.output, args.device, args.stats, phases);
  }
  OutputFiles outputs({args.output});
  // The device first: the reader refuses a graph it cannot hold before allocating it.
  Runtime& runtime =
      phases.measure("device setup", [&]() -> Runtime& { return kept_runtime(args.device); });
  // Weak components take every arc both ways; strong ones follow the arcs as the file has them.
  const DeviceGraph graph = args.graph.read_device(runtime, !args.strong, phases);
  std::vector<vertex_t> label;
  std::size_t count = 0;
  std::size_t rounds = 0, sweeps = 0;
  phases.measure(args.strong ? "strong components" : "components", [&] {
    if (args.strong) {
      StrongComponents scc = strong_components(runtime, graph);
      label = scc.label.download(runtime);
      count = scc.count;
      rounds = scc.rounds;
      sweeps = scc.sweeps;
    } else {
      Components cc = connected_components(runtime, graph);
      label = cc.label.download(runtime);
      count = cc.count;
    }
  });
  if (args.stats)
    std::cerr << "components: " << graph.vertices() << " vertices, " << graph.arcs() << " arcs, "
              << count << (args.strong ? " strongly connected components in " : " components")
              << (args.strong ? std::to_string(rounds) + " rounds, " + std::to_string(sweeps) +
                                    " propagation sweeps"
                              : std::string())
              << "\n";
  phases.measure("write", [&] {
    write_values_file(args.output, label);  // text, or .npy (int32)
    outputs.commit();
  });
  (args.output.empty() || args.output == "-" ? std::cerr : std::cout)
      << count << (args.strong ? " strongly connected components\n" : " components\n");
}

void setup_components(CLI::App& app) {
  auto [command, args] = add_timed_command(
      app, "components",
      "Connected components of a graph (arcs taken both ways), or with --strong its strongly "
      "connected components: per vertex the smallest vertex of its component",
      run_components);
  args->graph.add_to(command, "--graph", graph_file_help, true)->required();
  command->add_flag("--strong", args->strong,
                    "strongly connected components: u and v together when each reaches the "
                    "other along the arcs (edge lists: 'u v' is u -> v unless --undirected)");
  add_output_option(command, args->output,
                    "labels, one per line in vertex order, or .npy (int32); the count goes to "
                    "stdout, or to stderr when the labels do")
      ->check(written_as({OutputFormat::npy}));
  add_stats_option(command, args->stats);
  add_device_option(command, args->device);
}

TREEFIX_COMMAND("components", setup_components);

}  // namespace
}  // namespace treefix::cli
