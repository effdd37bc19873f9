// treefix rst: a rooted spanning forest of a graph (connectivity + Euler-tour rooting on the
// device), written as a parent array in the tree format.
#include <iostream>

#include "command.hpp"
#include "treefix/io.hpp"
#include "treefix/rooting.hpp"

namespace treefix::cli {
namespace {

struct RstArgs {
  std::string graph, output, device, method = "euler", list_rank = "ruling-set";
  std::int64_t root = -1;
  bool has_root = false;
};

// An undirected graph from an edge list ("u v" per line): both arcs of every edge.
Csr read_graph_edges(const std::string& path) {
  EdgeList edges = read_edge_list_strict(path);
  const std::size_t n = edges.vertices;
  Csr g;
  g.row_offset.assign(n + 1, 0);
  for (std::size_t i = 0; i < edges.edges(); ++i) {
    ++g.row_offset[edges.source[i] + 1];
    ++g.row_offset[edges.target[i] + 1];
  }
  for (std::size_t v = 0; v < n; ++v) g.row_offset[v + 1] += g.row_offset[v];
  g.column.resize(2 * edges.edges());
  std::vector<std::int64_t> fill(g.row_offset.begin(), g.row_offset.end() - 1);
  for (std::size_t i = 0; i < edges.edges(); ++i) {
    g.column[fill[edges.source[i]]++] = edges.target[i];
    g.column[fill[edges.target[i]]++] = edges.source[i];
  }
  return g;
}

void run_rst(const RstArgs& args) {
  if (args.method == "bfs")
    throw InputError("--method bfs is not available in this build (it comes with the BFS module); "
                     "use --method euler");
  RstOptions options;
  options.method = parse_rst_method(args.method);
  options.list_rank.method = parse_list_rank_method(args.list_rank);
  Csr graph = read_graph_edges(args.graph);
  if (args.has_root) {
    if (args.root < 0 || args.root >= static_cast<std::int64_t>(graph.vertices()))
      throw InputError("--root " + std::to_string(args.root) + " is not a vertex of " + args.graph +
                       " (" + std::to_string(graph.vertices()) + " vertices)");
    options.root = static_cast<vertex_t>(args.root);
  }
  Runtime runtime(args.device);
  ParentArray parent = rooted_spanning_forest(runtime, graph, options);
  write_output(args.output, [&](std::ostream& out) { write_tree(out, parent); });
}

void setup_rst(CLI::App& app) {
  auto args = std::make_shared<RstArgs>();
  auto* command = app.add_subcommand(
      "rst", "Rooted spanning forest of a graph on the device; write its parent array");
  command->add_option("--graph", args->graph, "graph as an edge list: 'u v' per line, 0-based, # comments")
      ->required();
  command->add_option("--root", args->root, "root of its component (others: smallest id)")
      ->each([args](const std::string&) { args->has_root = true; });
  command->add_option("--method", args->method, "euler (connectivity + Euler-tour rooting)");
  command->add_option("--output,-o", args->output, "parent array file (default: standard output)");
  command->add_option("--list-rank", args->list_rank, "list ranking: ruling-set (default) or wyllie");
  add_device_option(command, args->device);
  command->callback([args] { run_rst(*args); });
}

TREEFIX_COMMAND("rst", setup_rst);

}  // namespace
}  // namespace treefix::cli
