// treefix bfs: breadth-first search of a graph file on the device; depths and a BFS tree out.
#include <iostream>

#include <memory>
#include <tuple>

#include "distributed_run.hpp"
#include "graph_input.hpp"
#include "output_format.hpp"
#include "treefix/core/error.hpp"
#include "treefix/graph/bfs.hpp"
#include "treefix/graph/device_matrix.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/io/text_io.hpp"
#include "treefix/io/value_format.hpp"
#include "treefix/treefix/tree_io.hpp"

namespace treefix::cli {
namespace {

struct BfsCommand {
  GraphInput graph;
  std::string output, parents, device;
  std::int64_t source = 0;
  bool check = false, stats = false, top_down = false;
};

void print_stats(const BfsCommand& c, const DeviceGraph& graph, const BfsResult& r,
                 const Profile& profile) {
  std::size_t reached = 0;
  for (vertex_t d : r.depth) reached += d >= 0;
  std::cerr << "bfs: " << graph.vertices() << " vertices, " << graph.arcs() << " arcs, " << reached
            << " reached in " << r.levels << " levels, " << r.kernel_launches
            << " kernel launches (" << r.bottom_up_levels << " bottom-up levels), "
            << profile.milliseconds("bfs") << " ms of kernels" << (c.check ? ", checked" : "")
            << "\n";
}

void run_bfs(const BfsCommand& c, PhaseTimes& phases) {
  if (runs_distributed())
    return run_distributed_bfs(
        c.graph, {c.output, c.parents, c.device, c.source, c.check, c.stats, c.top_down}, phases);
  // Both outputs are checked (and staged) before anything is read, and committed together.
  OutputFiles outputs({c.output});
  if (!c.parents.empty()) outputs.add(c.parents);
  // The device first: the reader refuses a graph it cannot hold before allocating it.
  Runtime& runtime =
      phases.measure("device setup", [&]() -> Runtime& { return kept_runtime(c.device); });
  // The file's arcs, sorted and merged on the device (the arcs as they are: --undirected or a
  // symmetric file gives both ways).
  const DeviceGraph graph = c.graph.read_device(runtime, false, phases);
  const vertex_t source = vertex_option("--source", c.source, graph.vertices(), c.graph.path);
  Profile profile;
  BfsOptions options;
  options.profile = &profile;
  options.direction_optimizing = !c.top_down;
  BfsResult r = phases.measure("bfs", [&] {
    DeviceBfs searched = bfs(runtime, graph, {source}, options);
    BfsResult result;
    result.depth = searched.depth.download(runtime, &profile);
    result.parent = searched.parent.download(runtime, &profile);
    result.levels = searched.levels();
    result.kernel_launches = searched.kernel_launches;
    result.bottom_up_levels = searched.bottom_up_levels;
    return result;
  });
  if (c.check) {
    const Csr host = download_graph(runtime, graph);
    BfsResult ref = bfs_reference(host, source);
    std::string problem = bfs_tree_problem(host, source, ref.depth, r.depth, r.parent);
    if (!problem.empty()) throw Error("BFS check failed: " + problem);
  }
  if (c.stats) print_stats(c, graph, r, profile);
  phases.measure("write", [&] {
    write_values_file(c.output, r.depth);  // text, or .npy (int32)
    if (!c.parents.empty()) write_tree_file(c.parents, r.parent);
    outputs.commit();
  });
}

void setup_bfs(CLI::App& app) {
  auto [command, c] = add_timed_command(
      app, "bfs", "Breadth-first search of a graph: depth per vertex (-1 unreachable), BFS tree",
      run_bfs);
  c->graph.add_to(command, "--graph", graph_file_help, true)->required();
  command->add_option("--source", c->source, "source vertex, 0-based (default 0)")
      ->transform(integer_in(0, INT32_MAX));
  add_output_option(command, c->output,
                    "depths, one per line in vertex order, or .npy (int32, -1 unreachable)")
      ->check(written_as({OutputFormat::npy}));
  command
      ->add_option("--parents", c->parents,
                   "write the BFS tree in the tree format (n, then n parents; -1 for the source "
                   "and unreachable vertices), or .npy (int32)")
      ->check(written_as({OutputFormat::npy}));
  const std::tuple<const char*, bool*, const char*> flags[] = {
      {"--top-down", &c->top_down,
       "never expand a level bottom-up (by default wide levels of undirected graphs are, as in "
       "Beamer's direction-optimising BFS)"},
      {"--check", &c->check, "verify against the sequential BFS (fails if different)"},
      {"--stats", &c->stats,
       "print levels, launches, kernel time and the wall time of every phase (reading "
       "included) to stderr"}};
  for (const auto& [name, flag, help] : flags) command->add_flag(name, *flag, help);
  add_device_option(command, c->device);
}

TREEFIX_COMMAND("bfs", setup_bfs);

}  // namespace
}  // namespace treefix::cli
