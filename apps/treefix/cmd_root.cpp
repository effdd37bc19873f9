// treefix root: roots an unrooted forest given as an edge list, or in any graph format
// (graph/graph_io.hpp), by the Euler-tour technique on the device, and writes its parent array in
// the tree format.
#include <iostream>

#include "graph_input.hpp"
#include "treefix/core/error.hpp"
#include "treefix/graph/edge_list.hpp"
#include "treefix/graph/rooting.hpp"
#include "treefix/graph/spanning_forest.hpp"
#include "treefix/io/output_file.hpp"

namespace treefix::cli {
namespace {

struct RootArgs {
  GraphInput edges;
  RootedForestOutput rooted;
  std::int64_t vertices = -1;  // -1: not given (the option itself refuses negative counts)
  std::vector<std::int64_t> roots;
  bool stats = false;
};

// The forest as written: an edge list keeps every edge (repeats and loops are reported, with
// their lines in `lines`); another graph format gives its undirected edges.
EdgeList read_forest(const RootArgs& args, const GraphLimits& limits, PhaseTimes& phases,
                     std::vector<std::size_t>& lines) {
  const std::string& path = args.edges.path;
  if (args.edges.chosen_format() == GraphFormat::edges)
    return phases.measure(
        "read", [&] { return read_edge_list_strict(path, args.vertices, &lines, limits); });
  EdgeList forest = undirected_edges(args.edges.read(limits.device, &phases));
  if (args.vertices >= 0) {
    if (static_cast<std::size_t>(args.vertices) < forest.vertices)
      throw InputError("--vertices " + std::to_string(args.vertices) + ": " + path + " has " +
                       std::to_string(forest.vertices) + " vertices");
    forest.vertices = static_cast<std::size_t>(args.vertices);
  }
  require_forest_fits(limits, path, forest.vertices, forest.edges());
  return forest;
}

void run_root(const RootArgs& args, PhaseTimes& phases) {
  OutputFiles outputs({args.rooted.path});
  // The device first: the reader refuses a forest it cannot hold before allocating it, and
  // before reading at all when --vertices says how large it is.
  Runtime& runtime = phases.measure("device setup",
                                    [&]() -> Runtime& { return kept_runtime(args.rooted.device); });
  GraphLimits limits;
  limits.device = &runtime;
  std::vector<std::size_t> lines;  // of each edge, for messages (edge lists only)
  const EdgeList forest = read_forest(args, limits, phases, lines);
  RootingOptions options;
  for (auto r : args.roots)
    options.roots.push_back(vertex_option("--root", r, forest.vertices, args.edges.path));
  options.list_rank.method = args.rooted.list_rank;
  ParentArray parent;
  try {
    parent = phases.measure("rooting", [&] { return root_forest(runtime, forest, options); });
  } catch (const EdgeListError& e) {
    const std::string where = e.edge_index() < lines.size()
                                  ? args.edges.path + ":" + std::to_string(lines[e.edge_index()])
                                  : args.edges.path;
    throw InputError(where + ": " + e.what());
  }
  args.rooted.write(parent, outputs, phases);
}

void setup_root(CLI::App& app) {
  auto [command, args] = add_timed_command(
      app, "root", "Root an unrooted forest (edge list) on the device; write its parent array",
      run_root);
  args->edges
      .add_to(command, "--edges",
              "the forest: an edge list ('u v' per line, 0-based, # comments), or a graph "
              "file (.mtx, .graph, .npz, .csr: its undirected edges)",
              false)
      ->required();
  command
      ->add_option("--vertices", args->vertices,
                   "number of vertices (default: largest id + 1; the rest are isolated); the "
                   "device code's 32-bit indices take at most 2^31 - 2")
      ->transform(integer_in(0, INT32_MAX - 1));
  command
      ->add_option("--root", args->roots,
                   "root of its tree (repeatable, one per tree; default: each tree's smallest id)")
      ->transform(integer_in(0, INT32_MAX));
  args->rooted.add_to(command, args->stats);
}

TREEFIX_COMMAND("root", setup_root);

}  // namespace
}  // namespace treefix::cli
