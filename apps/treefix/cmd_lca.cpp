// treefix lca --tree T [--tree-format F] --pairs P [--distance [--weights W]] [--names]
//             [--output FILE] [--device SPEC] [--stats]
// The lowest common ancestor (or with --distance the patristic distance) of every pair of
// vertices, on the device (treefix/phylo/lca.hpp, path_lengths.hpp). Pairs: a text file of two
// vertices a line (names of a Newick tree, or ids), or a .npy array of shape (k, 2) of int32 or
// int64 ids. Output: one value a line (an id, -1 across trees; the name with --names), or .npy.
#include <iostream>
#include <memory>

#include "command.hpp"
#include "output_format.hpp"
#include "tree_vertices.hpp"
#include "treefix/core/error.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/phylo/lca.hpp"
#include "treefix/phylo/path_lengths.hpp"

namespace treefix::cli {
namespace {

struct LcaArgs {
  std::string tree, pairs, weights, output, device;
  TreeFormat tree_format = TreeFormat::automatic;
  bool distance = false, names = false, stats = false;
};

// The pairs as two columns of vertex ids.
void read_pairs(const LcaArgs& args, const TreeInput& tree, std::vector<vertex_t>& u,
                std::vector<vertex_t>& v) {
  std::vector<vertex_t> flat;
  if (is_npy_path(args.pairs)) {
    const NpyArray array = read_npy(args.pairs);
    if (array.shape.size() != 2 || array.shape[1] != 2)
      throw InputError(args.pairs + ": pairs must be an array of shape (k, 2)");
    const auto type = array.value_type();
    std::vector<std::int64_t> ids;
    if (type == ValueType::int64)
      ids = array.values<std::int64_t>(args.pairs);
    else if (type == ValueType::int32)
      for (std::int32_t x : array.values<std::int32_t>(args.pairs)) ids.push_back(x);
    else
      throw InputError(args.pairs + ": pairs must be int32 or int64 vertex ids");
    flat.resize(ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (ids[i] < 0 || static_cast<std::size_t>(ids[i]) >= tree.parent.size())
        throw InputError(args.pairs + ": pair " + std::to_string(i / 2) + ": " +
                         std::to_string(ids[i]) + " is not a vertex of the tree (" +
                         std::to_string(tree.parent.size()) + " vertices)");
      flat[i] = static_cast<vertex_t>(ids[i]);
    }
  } else {
    flat = read_vertices(args.pairs, TreeVertices(tree));
    if (flat.size() % 2)
      throw InputError(args.pairs + ": " + std::to_string(flat.size()) +
                       " vertices: pairs need an even number");
  }
  u.resize(flat.size() / 2);
  v.resize(flat.size() / 2);
  for (std::size_t i = 0; i < u.size(); ++i) {
    u[i] = flat[2 * i];
    v[i] = flat[2 * i + 1];
  }
}

void run_lca(const LcaArgs& args, PhaseTimes& phases) {
  const OutputFormat format = output_format(args.output, {OutputFormat::npy});
  if (args.names && (args.distance || format == OutputFormat::npy))
    throw InputError("lca --names writes the names of the ancestors as text (without --distance)");
  if (!args.weights.empty() && !args.distance)
    throw InputError("lca: --weights goes with --distance");
  OutputFiles outputs({args.output});
  TreeReadOptions read;
  read.format = args.tree_format;
  read.names = true;
  const TreeInput tree = phases.measure("read", [&] { return read_tree_input(args.tree, read); });
  if (args.names && tree.names.empty())
    throw InputError("lca --names: " + args.tree + " has no names (a Newick tree has)");
  std::vector<vertex_t> u, v;
  phases.measure("read pairs", [&] { read_pairs(args, tree, u, v); });
  std::vector<double> weights;
  if (args.distance) weights = branch_lengths_of(tree, args.weights);
  Runtime& runtime =
      phases.measure("device setup", [&]() -> Runtime& { return kept_runtime(args.device); });
  DeviceTree device_tree = phases.measure("prepare", [&] {
    DeviceTree prepared(runtime, tree.parent);
    runtime.queue().finish();
    return prepared;
  });
  const LcaIndex index = phases.measure("prepare", [&] {
    LcaIndex built(runtime, device_tree);
    runtime.queue().finish();
    return built;
  });
  if (args.distance) {
    std::vector<double> d(u.size());
    phases.measure("compute", [&] {
      const PathLengths lengths(runtime, device_tree,
                                DeviceArray<double>::upload(runtime, weights));
      lengths.distances(runtime, index, u.data(), v.data(), u.size(), d.data());
    });
    phases.measure("write", [&] {
      write_values_file(args.output, d);
      outputs.commit();
    });
    return;
  }
  std::vector<vertex_t> ancestor(u.size());
  phases.measure("compute",
                 [&] { index.lca(runtime, u.data(), v.data(), u.size(), ancestor.data()); });
  phases.measure("write", [&] {
    if (args.names)
      write_output(args.output, [&](std::ostream& out) {
        std::string text;
        for (vertex_t a : ancestor) {
          if (a >= 0)
            for (char c : tree.names[a]) text += c == '\n' || c == '\r' ? ' ' : c;
          text += '\n';
          if (text.size() > (std::size_t{1} << 20)) {
            out << text;
            text.clear();
          }
        }
        out << text;
      });
    else
      write_values_file(args.output, ancestor);
    outputs.commit();
  });
}

void setup_lca(CLI::App& app) {
  auto [command, args] = add_timed_command(
      app, "lca",
      "Lowest common ancestors (or patristic distances) of pairs of vertices, on the device",
      run_lca);
  command->add_option("--tree", args->tree, "tree file: Newick, text parent array or .npy")
      ->required();
  add_enum_option(command, "--tree-format", args->tree_format,
                  "tree file format (auto: by extension)");
  command
      ->add_option("--pairs", args->pairs,
                   "the pairs: two vertices a line (names of the tree, or ids; # comments), or "
                   "a .npy array of shape (k, 2) of ids")
      ->required();
  command->add_flag("--distance", args->distance,
                    "the sum of the branch lengths on the path between the two (exact, rounded "
                    "once) instead of their ancestor");
  command->add_option("--weights", args->weights,
                      "--distance: branch lengths (n values, text or .npy; default: the Newick "
                      "lengths, else 1 an edge)");
  command->add_flag("--names", args->names,
                    "write the ancestors' names (a Newick tree's; '' for unnamed and across "
                    "trees) instead of their ids");
  add_output_option(command, args->output,
                    "one value a line (ids: -1 across trees of a forest; distances: inf), or "
                    ".npy (int32 ids, float64 distances)")
      ->check(written_as({OutputFormat::npy}));
  add_device_option(command, args->device);
  add_stats_option(command, args->stats);
}

TREEFIX_COMMAND("lca", setup_lca);

}  // namespace
}  // namespace treefix::cli
