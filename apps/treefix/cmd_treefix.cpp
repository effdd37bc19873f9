// treefix rootfix|leaffix --tree T [--tree-format F] [--weights W] [--op ...] [--type ...]
//                        [--exclusive] [--precision accurate|fast] [--algorithm ...] [--device
//                        SPEC]
//                        [--output FILE] [--stats]
// Trees: text parent array, .npy or Newick; weights: text or .npy; output: text or .npy (by
// extension). On the device path the OpenCL setup (context, programs, a first launch) runs on a
// second thread while the files are read, and the tree is validated once, on the device.
#include <future>
#include <iostream>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "command.hpp"
#include "output_format.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/io/text_parse.hpp"
#include "treefix/treefix/pipeline.hpp"

namespace treefix::cli {
namespace {

struct TreefixArgs {
  std::string tree, weights, device, output;
  TreeFormat tree_format = TreeFormat::automatic;
  Op op = Op::sum;
  ValueType type = ValueType::int64;
  bool type_given = false;
  Algorithm algorithm = Algorithm::automatic;
  TourLayout layout = TourLayout::automatic;
  Precision precision = Precision::accurate;
  bool exclusive = false, stats = false;
};

// --type, else the dtype of .npy weights, else double for text weights with a decimal point or
// an exponent, else double for a Newick tree's branch lengths, else int64.
ValueType chosen_type(const TreefixArgs& args) {
  if (args.type_given) return args.type;
  if (!args.weights.empty() && is_npy_path(args.weights)) {
    const auto stored = npy_value_type(args.weights);
    if (!stored)
      throw InputError(args.weights +
                       ": weights must be a .npy array of int32, int64, float32 or float64");
    return *stored;
  }
  if (!args.weights.empty()) {
    const TextFile weights(args.weights);
    return text_looks_fractional(weights.text(), "#") ? ValueType::float64 : args.type;
  }
  if (tree_format_of(args.tree, args.tree_format) == TreeFormat::newick) return ValueType::float64;
  return args.type;
}

TreefixOptions options_of(const TreefixArgs& args) {
  TreefixOptions options;
  options.op = args.op;
  options.exclusive = args.exclusive;
  options.algorithm = args.algorithm;
  options.precision = args.precision;
  options.layout = args.layout;
  return options;
}

// Whether no command before this one in the process warmed a shared Runtime up for these
// options: the batch's hundredth rootfix does not launch the tiny warm-up calls again.
bool first_of_its_kind(const std::string& device, ValueType type, const TreefixOptions& o) {
  static std::mutex mutex;
  static std::set<std::string> warmed;
  const std::string key = device + '\n' + to_string(type) + ' ' + to_string(o.op) + ' ' +
                          to_string(o.algorithm) + ' ' + to_string(o.layout) + ' ' +
                          to_string(o.precision) + (o.exclusive ? " exclusive" : "");
  const std::lock_guard<std::mutex> lock(mutex);
  return warmed.insert(key).second;
}

template <class T>
void run_typed(const TreefixArgs& args, bool root) {
  OutputFiles outputs({args.output});  // checked before anything is read
  const bool named =
      output_format(args.output, {OutputFormat::npy, OutputFormat::tsv}) == OutputFormat::tsv;
  if (named && tree_format_of(args.tree, args.tree_format) != TreeFormat::newick)
    throw InputError(args.output + ": name<TAB>value rows need a tree with names (Newick); " +
                     args.tree + " is a parent array");
  PhaseTimes phases;
  FileTreefix request;
  request.tree = args.tree;
  request.weights = args.weights;
  request.output = args.output;
  request.tree_format = args.tree_format;
  request.leaffix = !root;
  request.named_output = named;
  request.options = options_of(args);
  // The device's setup overlaps the reading: context, programs, a first tiny call.
  // In `treefix batch` the commands share one Runtime, kept to the end.
  const bool shared = runtimes_shared();
  std::future<std::unique_ptr<Runtime>> setup;
  std::future<Runtime*> shared_setup;
  if (request.options.algorithm != Algorithm::sequential && !shared)
    setup = std::async(std::launch::async, [&args, options = request.options] {
      auto runtime = std::make_unique<Runtime>(args.device);
      warm_up(*runtime, value_type_of<T>(), options);
      return runtime;
    });
  if (request.options.algorithm != Algorithm::sequential && shared)
    shared_setup = std::async(std::launch::async, [&args, options = request.options] {
      Runtime* runtime = &kept_runtime(args.device);
      if (first_of_its_kind(args.device, value_type_of<T>(), options))
        warm_up(*runtime, value_type_of<T>(), options);
      return runtime;
    });
  // The Runtime is torn down beside the writing, once the result is on the host.
  std::unique_ptr<Runtime> runtime;
  if (!shared) request.device_done = [&] { tear_down_beside(std::move(runtime)); };
  treefix_files<T>(
      request,
      [&]() -> Runtime& { return shared ? *shared_setup.get() : *(runtime = setup.get()); },
      phases);
  phases.measure("write", [&] { outputs.commit(); });
  if (args.stats) phases.print(std::cerr, root ? "treefix rootfix" : "treefix leaffix");
}

void setup(CLI::App& app, const char* name, bool root) {
  auto args = std::make_shared<TreefixArgs>();
  auto* command = app.add_subcommand(
      name, root ? "Rootfix: combine each vertex's weight with its ancestors'"
                 : "Leaffix: combine each vertex's weight with its descendants'");
  command
      ->add_option("--tree", args->tree,
                   "tree file: text parent array (n, then n parents, -1 = root), .npy (int32 or "
                   "int64 parents) or Newick (.nwk, .newick; .tre, .tree, .treefile starting "
                   "with '('); gzip, xz or zstd compressed too; - is standard input")
      ->required();
  add_enum_option(command, "--tree-format", args->tree_format,
                  "tree file format (auto: by extension)");
  command->add_option("--weights", args->weights,
                      "weights: n numbers as text, or a 1-D .npy array (default: a Newick tree's "
                      "branch lengths, else all 1)");
  add_enum_option(command, "--op", args->op, "operator");
  add_enum_option(command, "--type", args->type,
                  "value type (default: the dtype of .npy weights; double for text weights "
                  "with a decimal point or exponent, and for a Newick tree's lengths; else "
                  "int64)")
      ->each([args](const std::string&) { args->type_given = true; })
      ->default_str("auto");
  command->add_flag("--exclusive", args->exclusive, "leave the vertex itself out");
  add_enum_option(command, "--precision", args->precision,
                  "floating-point sums: accurate (within 8·u·S of the exact sum, the same bits on "
                  "every run) or fast (the weight type, as in the paper; see README)");
  command->add_flag_callback(
      "--accurate", [args] { args->precision = Precision::accurate; },
      "the same as --precision accurate (the default)");
  add_enum_option(command, "--algorithm", args->algorithm, "algorithm (auto: see README)");
  add_enum_option(command, "--tour-layout", args->layout,
                  "Euler-tour numbering (auto: pre-order when the ids are scattered)");
  add_output_option(command, args->output,
                    "output file: one value per line, .npy, or .tsv (name<TAB>value per vertex, "
                    "for a Newick tree)")
      ->check(written_as({OutputFormat::npy, OutputFormat::tsv}));
  add_device_option(command, args->device);
  add_stats_option(command, args->stats);
  command->callback([args, root] {
    visit_value_type(chosen_type(*args),
                     [&](auto value) { run_typed<decltype(value)>(*args, root); });
  });
}

void setup_rootfix(CLI::App& app) { setup(app, "rootfix", true); }
void setup_leaffix(CLI::App& app) { setup(app, "leaffix", false); }

TREEFIX_COMMAND("rootfix", setup_rootfix);
TREEFIX_COMMAND("leaffix", setup_leaffix);

}  // namespace
}  // namespace treefix::cli
