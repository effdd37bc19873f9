// treefix mst: the minimum spanning forest of a weighted graph on the device (Borůvka over a
// total order of the edges, graph/minimum_spanning_tree.hpp), written as its edges with their
// weights; the total weight and the number of trees printed.
#include <algorithm>
#include <charconv>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

#include "graph_input.hpp"
#include "output_format.hpp"
#include "treefix/core/error.hpp"
#include "treefix/graph/device_matrix.hpp"
#include "treefix/graph/minimum_spanning_tree.hpp"
#include "treefix/io/output_file.hpp"

namespace treefix::cli {
namespace {

struct MstArgs {
  GraphInput graph;
  std::string output, device;
  bool stats = false;
};

// The weighted entries of the file: a Matrix Market file's values (1 in pattern files); every
// other format's arcs weigh 1. Each entry is an undirected edge; its mirror image adds nothing.
struct WeightedEntries {
  std::size_t n = 0;
  std::vector<vertex_t> row, column;
  std::vector<double> value;
};

WeightedEntries read_entries(const MstArgs& args, Runtime& runtime, PhaseTimes& phases) {
  WeightedEntries e;
  GraphReadOptions read;
  read.format = args.graph.format;
  read.edges_directed = true;  // every line once: an edge
  read.limits.device = &runtime;
  read.phases = &phases;
  if (args.graph.chosen_format() == GraphFormat::mtx) {
    MatrixEntries m = read_matrix_market_entries(args.graph.path, read, true);
    e.n = m.n;
    e.row = std::move(m.row);
    e.column = std::move(m.column);
    e.value = std::move(m.value);
    return e;
  }
  const Csr g = read_graph(args.graph.path, read);
  e.n = g.vertices();
  e.row.reserve(g.edges());
  for (std::size_t v = 0; v < e.n; ++v)
    e.row.insert(e.row.end(), g.degree(static_cast<vertex_t>(v)), static_cast<vertex_t>(v));
  e.column = g.column;
  e.value.assign(g.edges(), 1.0);
  return e;
}

void append_number(std::string& text, double value) {
  char digits[32];
  text.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
}

// Text: "u v weight" per edge (0-based, u < v), by u then v. Matrix Market: a symmetric real
// matrix holding each edge once, 1-based (scipy.io.mmread gives it both ways).
void write_forest(const std::string& path, std::size_t n, const SpanningForest& forest) {
  std::vector<std::size_t> order(forest.row.size());
  std::iota(order.begin(), order.end(), 0);
  auto low = [&](std::size_t i) { return std::min(forest.row[i], forest.column[i]); };
  auto high = [&](std::size_t i) { return std::max(forest.row[i], forest.column[i]); };
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return low(a) != low(b) ? low(a) < low(b) : high(a) < high(b);
  });
  const bool mtx = output_format(path, {OutputFormat::mtx}) == OutputFormat::mtx;
  write_output(path, [&](std::ostream& out) {
    std::string text;
    if (mtx)
      text = "%%MatrixMarket matrix coordinate real symmetric\n" + std::to_string(n) + " " +
             std::to_string(n) + " " + std::to_string(order.size()) + "\n";
    for (std::size_t i : order) {
      const std::int64_t base = mtx ? 1 : 0;
      text += std::to_string((mtx ? high(i) : low(i)) + base) + " " +
              std::to_string((mtx ? low(i) : high(i)) + base) + " ";
      append_number(text, forest.value[i]);
      text += "\n";
    }
    out << text;
  });
}

void run_mst(const MstArgs& args, PhaseTimes& phases) {
  OutputFiles outputs({args.output});
  Runtime& runtime =
      phases.measure("device setup", [&]() -> Runtime& { return kept_runtime(args.device); });
  const WeightedEntries e = read_entries(args, runtime, phases);
  SpanningForest forest = phases.measure("minimum spanning forest", [&] {
    HostMatrix matrix;
    matrix.layout = SparseLayout::coo;
    matrix.n = e.n;
    matrix.rows = {e.row.data(), e.row.size(), false};
    matrix.indices = {e.column.data(), e.column.size(), false};
    matrix.values = e.value.data();
    matrix.value_type = ValueType::float64;
    matrix.what = args.graph.path;
    MatrixUpload upload;
    upload.values = true;
    return minimum_spanning_forest(runtime, upload_matrix(runtime, matrix, upload));
  });
  double total = 0;  // in CSR order: the same sum on every run
  for (double w : forest.value) total += w;
  if (args.stats)
    std::cerr << "mst: " << e.n << " vertices, " << e.row.size() << " weighted entries, "
              << forest.row.size() << " forest edges, " << forest.rounds << " rounds\n";
  phases.measure("write", [&] {
    write_forest(args.output, e.n, forest);
    outputs.commit();
  });
  std::string weight;
  append_number(weight, total);
  (args.output.empty() || args.output == "-" ? std::cerr : std::cout)
      << "total weight " << weight << ", " << forest.components << " trees\n";
}

void setup_mst(CLI::App& app) {
  auto [command, args] = add_timed_command(
      app, "mst",
      "Minimum spanning forest of a weighted graph on the device (every stored entry is an "
      "undirected edge, as scipy.sparse.csgraph.minimum_spanning_tree takes a matrix): "
      "its edges and their weights",
      run_mst);
  args->graph
      .add_to(command, "--graph",
              std::string(graph_file_help) +
                  "; weights: Matrix Market values (1 in pattern files), 1 in every other format",
              false)
      ->required();
  add_output_option(command, args->output,
                    "the forest's edges: 'u v weight' lines (0-based, u < v, by u then v), or "
                    ".mtx (a symmetric real matrix holding each edge once)")
      ->check(written_as({OutputFormat::mtx}));
  add_stats_option(command, args->stats);
  add_device_option(command, args->device);
}

TREEFIX_COMMAND("mst", setup_mst);

}  // namespace
}  // namespace treefix::cli
