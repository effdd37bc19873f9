// treefix convert --tree IN [--tree-format F] --output OUT [--names FILE] [--weights-out FILE]
// A tree from any supported input, written as a text parent array or .npy (by OUT's extension),
// with its node names (one per vertex, one per line) and its weights (Newick branch lengths; text
// or .npy by extension) when asked for.
//
// Inputs: every kind of input is one branch of load_input(), each filling a ConvertedTree:
//   --tree FILE   a tree file (text parent array, .npy, Newick), here;
//   --xml FILE    (forest module) an XML document's element tree, parent array plus weights;
//   --graph FILE  (graph module) a rooted spanning tree of a graph.
// Exactly one is given; a new one adds its option in setup_convert() and a branch below.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/output_file.hpp"
#include "treefix/treefix/tree_io.hpp"

namespace treefix::cli {
namespace {

struct ConvertArgs {
  std::string tree, output, names, weights_out;
  TreeFormat tree_format = TreeFormat::automatic;
};

// A tree as convert writes it, whatever it was read from.
struct ConvertedTree {
  ParentArray parent;                          // validated
  std::optional<std::vector<double>> weights;  // what the input says each vertex weighs
  NodeNames names;                             // empty when the input names nothing
};

ConvertedTree from_tree_file(const ConvertArgs& args) {
  TreeReadOptions read;
  read.format = args.tree_format;
  read.names = !args.names.empty();
  TreeInput input = read_tree_input(args.tree, read);  // validated
  ConvertedTree tree;
  tree.parent = std::move(input.parent);
  if (input.has_lengths) tree.weights = std::move(input.lengths);
  tree.names = std::move(input.names);
  return tree;
}

ConvertedTree load_input(const ConvertArgs& args) {
  const std::vector<std::pair<const char*, bool>> given = {{"--tree", !args.tree.empty()}};
  std::size_t count = 0;
  std::string options;
  for (auto& [option, set] : given) {
    count += set;
    options += options.empty() ? option : std::string(", ") + option;
  }
  if (count != 1) throw InputError("convert needs exactly one input: " + options);
  return from_tree_file(args);
}

void write_names(const std::string& path, const NodeNames& names, std::size_t vertices) {
  write_output(path, [&](std::ostream& out) {
    std::string text;
    for (std::size_t v = 0; v < vertices; ++v) {
      if (v < names.size())
        for (char c : names[v]) text += c == '\n' || c == '\r' ? ' ' : c;  // one line per vertex
      text += '\n';
      if (text.size() > (std::size_t(1) << 20)) {
        out << text;
        text.clear();
      }
    }
    out << text;
  });
}

void run_convert(const ConvertArgs& args) {
  ConvertedTree tree = load_input(args);
  if (!args.weights_out.empty() && !tree.weights)
    throw InputError(
        "--weights-out: the input has no weights (Newick branch lengths, XML weights)");
  write_tree_file(args.output, tree.parent);
  if (!args.names.empty()) write_names(args.names, tree.names, tree.parent.size());
  if (!args.weights_out.empty()) write_values_file(args.weights_out, *tree.weights);
}

void setup_convert(CLI::App& app) {
  auto args = std::make_shared<ConvertArgs>();
  auto* command = add_command(
      app, "convert",
      "Convert a tree: text parent array, .npy or Newick in; text parent array or .npy out "
      "(by extension), with node names and weights",
      args, run_convert);
  command->add_option("--tree", args->tree,
                      "tree file: text parent array, .npy (int32/int64 parents) or Newick "
                      "(.nwk, .newick)");
  add_enum_option(command, "--tree-format", args->tree_format,
                  "tree file format (auto: by extension)");
  add_output_option(command, args->output,
                    "the parent array: text (n, then one parent a line) or .npy (int32)");
  command->add_option("--names", args->names,
                      "write the node names, one line per vertex (empty for an unnamed node)");
  command->add_option("--weights-out", args->weights_out,
                      "write the tree's weights (Newick branch lengths, 0 where none): text, or "
                      ".npy (float64)");
}

TREEFIX_COMMAND("convert", setup_convert);

}  // namespace
}  // namespace treefix::cli
