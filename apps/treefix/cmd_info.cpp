// treefix info FILE: what a tree or graph file holds: sizes, roots and leaves, depth, degrees,
// level sizes (trees), components (graphs); as text, or --json.
#include <array>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include "command.hpp"
#include "graph_input.hpp"
#include "summary.hpp"
#include "treefix/io/file_kind.hpp"
#include "treefix/io/text_parse.hpp"
#include "treefix/treefix/tree_io.hpp"

namespace treefix::cli {
namespace {

struct InfoArgs {
  GraphInput file;  // the path, and --format/--directed for graphs
  std::string as = "auto";
  TreeFormat tree_format = TreeFormat::automatic;
  bool json = false;
};

// A tree file or a graph file: by --as, else by what the name (and a text file's first line) say.
bool is_tree(const InfoArgs& args) {
  if (args.as != "auto") return args.as == "tree";
  if (args.tree_format != TreeFormat::automatic) return true;
  if (args.file.format != GraphFormat::automatic) return false;
  switch (file_kind(args.file.path)) {
    case FileKind::npy:
    case FileKind::newick:
    case FileKind::maybe_newick:
      return true;
    case FileKind::text: {
      // A parent array starts with its count alone on a line; an edge list with two ids.
      const TextFile file(args.file.path);
      const std::string_view text = file.text();
      const auto first = text.find_first_not_of(" \t\r\n");
      if (first == std::string_view::npos) return true;
      if (text[first] == '(') return true;
      const std::string_view line = text.substr(first, text.find('\n', first) - first);
      const auto gap = line.find_first_of(" \t");
      return gap == std::string_view::npos ||
             line.find_first_not_of(" \t\r", gap) == std::string_view::npos;
    }
    default:
      return false;
  }
}

// Up to 32 rows of (first depth, last depth, vertices): the levels, or ranges of them.
std::vector<std::array<std::size_t, 3>> level_rows(const std::vector<std::size_t>& levels) {
  constexpr std::size_t kRows = 32;
  const std::size_t per_row = (levels.size() + kRows - 1) / kRows;
  std::vector<std::array<std::size_t, 3>> rows;
  for (std::size_t first = 0; first < levels.size(); first += per_row) {
    const std::size_t last = std::min(levels.size(), first + per_row) - 1;
    std::size_t count = 0;
    for (std::size_t d = first; d <= last; ++d) count += levels[d];
    rows.push_back({first, last, count});
  }
  return rows;
}

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", x);
  return text;
}

void print_tree(const InfoArgs& args, const ForestSummary& s) {
  const std::string degree = "{\"min\": " + std::to_string(s.children.min) +
                             ", \"mean\": " + number(s.children.mean) +
                             ", \"max\": " + std::to_string(s.children.max) + "}";
  const auto rows = level_rows(s.levels);
  if (args.json) {
    std::cout << "{\"kind\": \"tree\", \"vertices\": " << s.vertices
              << ", \"arcs\": " << s.vertices - s.roots << ", \"roots\": " << s.roots
              << ", \"leaves\": " << s.leaves << ", \"depth\": " << s.depth
              << ", \"children\": " << degree << ", \"level_sizes\": [";
    for (std::size_t d = 0; d < s.levels.size(); ++d) std::cout << (d ? ", " : "") << s.levels[d];
    std::cout << "]}\n";
    return;
  }
  std::cout << "tree " << args.file.path << "\n"
            << "vertices  " << s.vertices << "\n"
            << "arcs      " << s.vertices - s.roots << " (child to parent)\n"
            << "roots     " << s.roots << (s.roots > 1 ? " (a forest)" : "") << "\n"
            << "leaves    " << s.leaves << "\n"
            << "depth     " << s.depth << " (edges on the longest root-to-leaf path)\n"
            << "children  min " << s.children.min << ", mean " << number(s.children.mean)
            << ", max " << s.children.max << "\n"
            << "level sizes" << (rows.size() < s.levels.size() ? " (ranges of depths)" : "")
            << ":\n";
  std::size_t widest = 1;
  for (const auto& row : rows) widest = std::max(widest, row[2]);
  for (const auto& row : rows) {
    std::ostringstream depth;
    depth << row[0];
    if (row[1] != row[0]) depth << "-" << row[1];
    char line[64];
    std::snprintf(line, sizeof line, "  %13s %12zu ", depth.str().c_str(), row[2]);
    std::cout << line << std::string((row[2] * 40 + widest - 1) / widest, '#') << "\n";
  }
}

void print_graph(const InfoArgs& args, const GraphSummary& s) {
  if (args.json) {
    std::cout << "{\"kind\": \"graph\", \"vertices\": " << s.vertices << ", \"arcs\": " << s.arcs
              << ", \"undirected\": " << (s.undirected ? "true" : "false")
              << ", \"components\": " << s.components
              << ", \"largest_component\": " << s.largest_component
              << ", \"isolated\": " << s.isolated
              << ", \"out_degree\": {\"min\": " << s.out_degree.min
              << ", \"mean\": " << number(s.out_degree.mean) << ", \"max\": " << s.out_degree.max
              << "}}\n";
    return;
  }
  std::cout << "graph " << args.file.path << "\n"
            << "vertices    " << s.vertices << "\n"
            << "arcs        " << s.arcs
            << (s.undirected ? " (undirected: " + std::to_string(s.arcs / 2) + " edges)" : "")
            << "\n"
            << "components  " << s.components << " (weakly connected), the largest "
            << s.largest_component << " vertices\n"
            << "isolated    " << s.isolated << "\n"
            << "out-degree  min " << s.out_degree.min << ", mean " << number(s.out_degree.mean)
            << ", max " << s.out_degree.max << "\n";
}

void run_info(const InfoArgs& args) {
  if (is_tree(args)) {
    TreeReadOptions read;
    read.format = args.tree_format;
    print_tree(args, summarize_forest(read_tree_input(args.file.path, read).parent));
  } else {
    print_graph(args, summarize_graph(args.file.read(nullptr, nullptr)));
  }
}

void setup_info(CLI::App& app) {
  auto args = std::make_shared<InfoArgs>();
  auto* command = add_command(app, "info",
                              "What a tree or graph file holds: vertices, arcs, roots, leaves, "
                              "depth, degrees, level sizes (trees), components (graphs)",
                              args, run_info);
  args->file
      .add_to(command, "file",
              "tree file (parent array, .npy, Newick) or graph file (.mtx, .graph, .npz, .csr, "
              "edge list); compressed too; - is standard input",
              true)
      ->required();
  command->add_option("--as", args->as, "tree, graph, or auto (by extension and content)")
      ->check(CLI::IsMember({"auto", "tree", "graph"}));
  add_enum_option(command, "--tree-format", args->tree_format,
                  "tree file format (auto: by extension)");
  command->add_flag("--json", args->json, "one JSON object on standard output");
}

TREEFIX_COMMAND("info", setup_info);

}  // namespace
}  // namespace treefix::cli
