// treefix generate: benchmark trees (tree format, or .npy) and graphs (Matrix Market or edge
// list). Every option is checked against the shape before anything is generated or written: an
// option the shape does not read, a missing size, or sizes that contradict each other (more trees
// than vertices, a spine longer than the caterpillar) are refused, never silently "fixed".
#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "command.hpp"
#include "distributed_run.hpp"
#include "output_format.hpp"
#include "treefix/core/error.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/graph/graph_io.hpp"
#include "treefix/io/output_file.hpp"
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
  bool lengths = false, names = false;  // Newick output: random branch lengths, tip names
  bool distributed = false;             // kronecker: each rank makes its share, written as one .csr
};

constexpr const char* kShapes =
    "star, path, caterpillar, kary, random, binary, forest, bfs-tree, kronecker, grid";

// The options each shape reads (--output and --seed with --shuffle go with every tree shape).
const std::map<std::string, std::set<std::string>>& shape_options() {
  static const std::map<std::string, std::set<std::string>> options = {
      {"star", {"--vertices", "--shuffle"}},
      {"path", {"--vertices", "--shuffle"}},
      {"caterpillar", {"--vertices", "--spine", "--shuffle"}},
      {"kary", {"--vertices", "--k", "--shuffle"}},
      {"random", {"--vertices", "--seed", "--shuffle"}},
      {"binary", {"--vertices", "--seed", "--shuffle"}},
      {"forest", {"--vertices", "--trees", "--seed", "--shuffle"}},
      {"bfs-tree",
       {"--graph", "--scale", "--edge-factor", "--seed", "--rows", "--cols", "--source",
        "--shuffle"}},
      {"kronecker", {"--scale", "--edge-factor", "--seed", "--format", "--distributed"}},
      {"grid", {"--rows", "--cols", "--format"}}};
  return options;
}

// Refuses an unknown shape, an option the shape would ignore, and a missing or contradictory size.
void check_arguments(const CLI::App& command, const GenerateCommand& c) {
  const auto shape = shape_options().find(c.shape);
  if (shape == shape_options().end())
    throw InputError("generate: unknown shape '" + c.shape + "' (" + kShapes + ")");
  auto given = [&](const char* name) { return command.get_option(name)->count() > 0; };
  for (const CLI::Option* option : command.get_options()) {
    const std::string long_name =
        option->get_lnames().empty() ? option->get_name() : "--" + option->get_lnames()[0];
    const bool tree_label = long_name == "--lengths" || long_name == "--names";
    const bool read = shape->second.count(long_name) ||
                      (long_name == "--seed" && (c.shuffle || c.lengths)) ||
                      (tree_label && shape->second.count("--shuffle")) || long_name == "--output" ||
                      long_name == "--help" || long_name == "shape";
    if (option->count() > 0 && !read)
      throw InputError("generate " + c.shape + ": " + long_name + " does not apply to this shape");
  }
  if (shape->second.count("--vertices")) {
    if (!given("--vertices"))
      throw InputError("generate " + c.shape + " needs -n N (the number of vertices)");
    if (c.shape == "caterpillar" && given("--spine") && c.spine > c.vertices)
      throw InputError("generate caterpillar: --spine " + std::to_string(c.spine) +
                       " is longer than the tree (-n " + std::to_string(c.vertices) + ")");
    if (c.shape == "forest" && c.trees > c.vertices)
      throw InputError("generate forest: --trees " + std::to_string(c.trees) + " is more than -n " +
                       std::to_string(c.vertices) + " (every tree has a vertex)");
  }
  if (c.shape == "kronecker" && !given("--scale"))
    throw InputError("generate kronecker needs --scale S (2^S vertices)");
  if (c.shape == "grid" && (!given("--rows") || !given("--cols")))
    throw InputError("generate grid needs --rows R --cols C");
  if (c.shape == "bfs-tree") {
    const int sources = given("--graph") + given("--scale") + (given("--rows") || given("--cols"));
    if (sources != 1 || given("--rows") != given("--cols"))
      throw InputError(
          "generate bfs-tree needs one graph: --graph FILE, --scale S (Kronecker) or --rows R "
          "--cols C (grid)");
    if (given("--edge-factor") && !given("--scale"))
      throw InputError("generate bfs-tree: --edge-factor goes with --scale");
  }
}

Csr make_graph(const GenerateCommand& c) {
  if (!c.graph.empty()) return read_graph(c.graph);
  if (c.scale) return generate::kronecker(c.scale, c.edge_factor, c.seed);
  return generate::grid2d(c.rows, c.cols);
}

ParentArray make_tree(const GenerateCommand& c) {
  const std::size_t n = c.vertices;
  const std::string& s = c.shape;
  if (s == "bfs-tree") {
    Csr g = make_graph(c);
    if (static_cast<std::size_t>(c.source) >= g.vertices())
      throw InputError("--source " + std::to_string(c.source) + " is not a vertex (the graph has " +
                       std::to_string(g.vertices()) + ")");
    return generate::bfs_spanning_tree(g, static_cast<vertex_t>(c.source));
  }
  generate::TreeParameters shape;
  shape.spine = c.spine;
  shape.k = c.k;
  shape.trees = c.trees;
  shape.seed = c.seed;
  return generate::tree(s, n, shape);
}

void run_generate(const CLI::App& command, const GenerateCommand& c) {
  check_arguments(command, c);
  if (c.distributed) return run_distributed_generate(c.scale, c.edge_factor, c.seed, c.output);
  const bool tree = c.shape != "kronecker" && c.shape != "grid";
  const OutputFormat format =  // a tree: text, .npy or Newick (unnamed nodes, no lengths)
      tree ? output_format(c.output, {OutputFormat::npy, OutputFormat::newick})
           : OutputFormat::text;
  OutputFiles outputs({c.output});  // an output that cannot be written stops us now
  if (c.shape == "kronecker" || c.shape == "grid") {
    const Csr g = c.shape == "kronecker" ? generate::kronecker(c.scale, c.edge_factor, c.seed)
                                         : generate::grid2d(c.rows, c.cols);
    GraphWriteOptions write;
    write.format = c.format == "csr"     ? GraphFormat::csr
                   : c.format == "edges" ? GraphFormat::edges
                                         : GraphFormat::mtx;
    write_graph(c.output, g, write);
  } else {
    ParentArray parent = make_tree(c);
    if (c.shuffle) parent = generate::shuffle_labels(parent, c.seed);
    if ((c.lengths || c.names) && format != OutputFormat::newick)
      throw InputError("generate: --lengths and --names write Newick (an output named .nwk)");
    if (format == OutputFormat::newick) {
      const std::vector<double> lengths =
          c.lengths ? generate::branch_lengths(parent, c.seed) : std::vector<double>();
      const NodeNames names = c.names ? generate::tip_names(parent) : NodeNames();
      write_output(c.output, [&](std::ostream& out) {
        write_newick(out, parent, c.names ? &names : nullptr, c.lengths ? &lengths : nullptr);
      });
    } else {
      write_tree_file(c.output, parent);
    }
  }
  outputs.commit();
}

void setup_generate(CLI::App& app) {
  auto c = std::make_shared<GenerateCommand>();
  auto* command = app.add_subcommand(
      "generate",
      "Generate a tree (star, path, caterpillar, kary, random, binary, forest, bfs-tree: tree "
      "format, .npy or Newick by the output's extension) or a graph (kronecker, grid: Matrix "
      "Market or edge list)");
  command->callback([c, command] { run_generate(*command, *c); });
  command->add_option("shape", c->shape, std::string("the shape: ") + kShapes)->required();
  const auto vertices = integer_in(1, INT32_MAX);
  command->add_option("-n,--vertices", c->vertices, "tree shapes: vertices")->check(vertices);
  command->add_option("--spine", c->spine, "caterpillar: spine length, 1..n (default n/2)")
      ->check(vertices);
  command->add_option("--k", c->k, "kary: children per vertex (default 2)")->check(vertices);
  command->add_option("--trees", c->trees, "forest: number of trees, 1..n (default 1)")
      ->check(vertices);
  command->add_option("--scale", c->scale, "kronecker (or bfs-tree of one): 2^scale vertices")
      ->transform(integer_in(1, 30));
  command->add_option("--edge-factor", c->edge_factor, "kronecker: edges per vertex (default 16)")
      ->transform(integer_in(1, 1 << 16));
  command->add_option("--rows", c->rows, "grid (or bfs-tree of one): rows")->check(vertices);
  command->add_option("--cols", c->cols, "grid (or bfs-tree of one): columns")->check(vertices);
  command->add_option("--graph", c->graph, "bfs-tree: the graph file to span");
  command->add_option("--source", c->source, "bfs-tree: the root (default 0)")
      ->transform(integer_in(0, INT32_MAX));
  command->add_flag("--distributed", c->distributed,
                    "kronecker: each rank (under mpirun) makes its share of the graph, the same "
                    "graph for any rank count and on one device; written as one raw CSR binary "
                    "(.csr); its hash printed (docs/distributed.md)");
  command->add_option("--seed", c->seed, "random seed (default 1)")->transform(integer_in(0));
  command->add_flag("--shuffle", c->shuffle, "relabel the tree's vertices randomly");
  command->add_flag("--lengths", c->lengths,
                    "Newick output: random branch lengths (exponential, mean 1; from --seed)");
  command->add_flag("--names", c->names, "Newick output: tips named t1, t2, ... in vertex order");
  command
      ->add_option("--format", c->format,
                   "graphs: mtx (default), edges or csr (raw CSR binary; the bytes of "
                   "--distributed)")
      ->check(CLI::IsMember({"mtx", "edges", "csr"}));
  add_output_option(command, c->output, "output file");
}

TREEFIX_COMMAND("generate", setup_generate);

}  // namespace
}  // namespace treefix::cli
