// treefix rootfix|leaffix --tree T [--weights W] [--op ...] [--type ...] [--exclusive]
//                        [--algorithm ...] [--device SPEC] [--output FILE]
#include <iostream>

#include "command.hpp"
#include "treefix/core/output_file.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/core/text_io.hpp"
#include "treefix/core/value_format.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/tree_io.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix::cli {
namespace {

struct TreefixArgs {
  std::string tree, weights, device, output;
  Op op = Op::sum;
  ValueType type = ValueType::int64;
  Algorithm algorithm = Algorithm::automatic;
  bool exclusive = false, accurate = false, stats = false;
};

template <class T>
void run_typed(const TreefixArgs& args, bool root) {
  PhaseTimes phases;
  ParentArray parent = phases.measure("read", [&] { return read_tree(args.tree); });
  std::vector<T> weights = phases.measure("read", [&] {
    return args.weights.empty() ? std::vector<T>(parent.size(), T(1))
                                : read_weights<T>(args.weights, parent.size());
  });
  TreefixOptions options;
  options.op = args.op;
  options.exclusive = args.exclusive;
  options.algorithm = args.algorithm;
  options.accurate = args.accurate;
  std::vector<T> result;
  if (options.algorithm == Algorithm::sequential) {
    result = phases.measure("compute", [&] {
      return root ? reference::rootfix(parent, weights, options.op, options.exclusive)
                  : reference::leaffix(parent, weights, options.op, options.exclusive);
    });
  } else {
    Runtime runtime = phases.measure("device setup", [&] { return Runtime(args.device); });
    result = phases.measure("compute", [&] {
      return root ? rootfix(runtime, parent, weights, options)
                  : leaffix(runtime, parent, weights, options);
    });
  }
  phases.measure("write", [&] {
    write_output(args.output, [&](std::ostream& out) { write_values(out, result); });
  });
  if (args.stats) phases.print(std::cerr, root ? "treefix rootfix" : "treefix leaffix");
}

void setup(CLI::App& app, const char* name, bool root) {
  auto args = std::make_shared<TreefixArgs>();
  auto* command = app.add_subcommand(
      name, root ? "Rootfix: combine each vertex's weight with its ancestors'"
                 : "Leaffix: combine each vertex's weight with its descendants'");
  command->add_option("--tree", args->tree, "tree file: n, then n parent indices (-1 = root)")
      ->required();
  command->add_option("--weights", args->weights, "weights file: n numbers (default: all 1)");
  add_enum_option(command, "--op", args->op, "operator");
  add_enum_option(command, "--type", args->type, "value type");
  command->add_flag("--exclusive", args->exclusive, "leave the vertex itself out");
  command->add_flag("--accurate", args->accurate,
                    "floating-point sums: carry a wider or compensated sum through the Euler-tour "
                    "scan (about twice the precision; see README)");
  add_enum_option(command, "--algorithm", args->algorithm, "algorithm (auto: see README)");
  add_output_option(command, args->output, "output file, one value per line");
  add_device_option(command, args->device);
  add_stats_option(command, args->stats);
  command->callback([args, root] {
    visit_value_type(args->type, [&](auto value) { run_typed<decltype(value)>(*args, root); });
  });
}

void setup_rootfix(CLI::App& app) { setup(app, "rootfix", true); }
void setup_leaffix(CLI::App& app) { setup(app, "leaffix", false); }

TREEFIX_COMMAND("rootfix", setup_rootfix);
TREEFIX_COMMAND("leaffix", setup_leaffix);

}  // namespace
}  // namespace treefix::cli
