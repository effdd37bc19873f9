// treefix generate: benchmark trees (tree format) and graphs (Matrix Market or edge list).
#include <algorithm>
#include <memory>

#include "command.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/output_file.hpp"
#include "treefix/core/text_io.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/graph/graph_io.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/tree_io.hpp"

namespace treefix::cli {
namespace {

struct GenerateCommand {
  std::string shape, output, graph, format = "mtx";
  std::size_t vertices = 0, spine = 0, k = 2, trees = 1, rows = 0, cols = 0;
  unsigned scale = 0, edge_factor = 16;
  std::uint64_t seed = 1;
  std::int64_t source = 0;
  bool shuffle = false;
};

Csr make_graph(const GenerateCommand& c) {
  if (!c.graph.empty()) return read_graph(c.graph);
  if (c.scale) return generate::kronecker(c.scale, c.edge_factor, c.seed);
  if (c.rows && c.cols) return generate::grid2d(c.rows, c.cols);
  throw InputError(
      "bfs-tree needs --graph FILE, --scale S (Kronecker) or --rows R --cols C (grid)");
}

void run_generate(const GenerateCommand& c) {
  const std::string& s = c.shape;
  if (s == "kronecker" || s == "grid") {
    Csr g;
    if (s == "kronecker") {
      if (c.scale == 0) throw InputError("kronecker needs --scale S (2^S vertices)");
      g = generate::kronecker(c.scale, c.edge_factor, c.seed);
    } else {
      if (c.rows == 0 || c.cols == 0) throw InputError("grid needs --rows R --cols C");
      g = generate::grid2d(c.rows, c.cols);
    }
    if (c.format != "mtx" && c.format != "edges")
      throw InputError("--format must be mtx or edges, not '" + c.format + "'");
    write_output(c.output, [&](std::ostream& out) {
      if (c.format == "mtx")
        write_matrix_market(out, g);
      else
        write_edge_list(out, g);
    });
    return;
  }
  ParentArray parent;
  if (s == "bfs-tree") {
    Csr g = make_graph(c);
    if (c.source < 0 || static_cast<std::size_t>(c.source) >= g.vertices())
      throw InputError("--source " + std::to_string(c.source) + " is not a vertex (the graph has " +
                       std::to_string(g.vertices()) + ")");
    parent = generate::bfs_spanning_tree(g, static_cast<vertex_t>(c.source));
  } else {
    const std::size_t n = c.vertices;
    if (s == "star")
      parent = generate::star(n);
    else if (s == "path")
      parent = generate::path(n);
    else if (s == "caterpillar")
      parent = generate::caterpillar(n, c.spine ? c.spine : std::max<std::size_t>(1, n / 2));
    else if (s == "kary")
      parent = generate::kary(n, c.k);
    else if (s == "random")
      parent = generate::random_recursive(n, c.seed);
    else if (s == "forest")
      parent = generate::random_forest(n, c.trees, c.seed);
    else
      throw InputError(
          "unknown shape '" + s +
          "' (star, path, caterpillar, kary, random, forest, bfs-tree, kronecker, grid)");
  }
  if (c.shuffle) parent = generate::shuffle_labels(parent, c.seed);
  write_output(c.output, [&](std::ostream& out) { write_tree(out, parent); });
}

void setup_generate(CLI::App& app) {
  auto c = std::make_shared<GenerateCommand>();
  auto* command = add_command(
      app, "generate",
      "Generate a tree (star, path, caterpillar, kary, random, forest, bfs-tree: tree format) or "
      "a graph (kronecker, grid: Matrix Market or edge list)",
      c, run_generate);
  command
      ->add_option(
          "shape", c->shape,
          "star | path | caterpillar | kary | random | forest | bfs-tree | kronecker | grid")
      ->required();
  command->add_option("-n,--vertices", c->vertices, "vertices of a tree shape");
  command->add_option("--spine", c->spine, "caterpillar: spine length (default n/2)");
  command->add_option("--k", c->k, "kary: children per vertex (default 2)");
  command->add_option("--trees", c->trees, "forest: number of trees (default 1)");
  command->add_option("--scale", c->scale, "kronecker (or bfs-tree of one): 2^scale vertices");
  command->add_option("--edge-factor", c->edge_factor, "kronecker: edges per vertex (default 16)");
  command->add_option("--rows", c->rows, "grid (or bfs-tree of one): rows");
  command->add_option("--cols", c->cols, "grid (or bfs-tree of one): columns");
  command->add_option("--graph", c->graph, "bfs-tree: the graph file to span");
  command->add_option("--source", c->source, "bfs-tree: the root (default 0)");
  command->add_option("--seed", c->seed, "random seed (default 1)");
  command->add_flag("--shuffle", c->shuffle, "relabel the tree's vertices randomly");
  command->add_option("--format", c->format, "graphs: mtx (default) or edges");
  add_output_option(command, c->output, "output file");
}

TREEFIX_COMMAND("generate", setup_generate);

}  // namespace
}  // namespace treefix::cli
