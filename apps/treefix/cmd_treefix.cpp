// treefix rootfix|leaffix --tree T [--weights W] [--op ...] [--type ...] [--exclusive]
//                        [--algorithm ...] [--device SPEC] [--output FILE]
#include <iostream>

#include "command.hpp"
#include "treefix/core/text_io.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix::cli {
namespace {

struct TreefixArgs {
  std::string tree, weights, op = "sum", type = "int64", algorithm = "auto", device, output;
  bool exclusive = false, accurate = false;
};

template <class T>
void run_typed(const TreefixArgs& args, bool root) {
  ParentArray parent = read_tree(args.tree);
  std::vector<T> weights = args.weights.empty() ? std::vector<T>(parent.size(), T(1))
                                                : read_weights<T>(args.weights, parent.size());
  TreefixOptions options;
  options.op = parse<Op>(args.op);
  options.exclusive = args.exclusive;
  options.algorithm = parse<Algorithm>(args.algorithm);
  options.accurate = args.accurate;
  std::vector<T> result;
  if (options.algorithm == Algorithm::sequential) {
    result = root ? reference::rootfix(parent, weights, options.op, options.exclusive)
                  : reference::leaffix(parent, weights, options.op, options.exclusive);
  } else {
    Runtime runtime(args.device);
    result = root ? rootfix(runtime, parent, weights, options) : leaffix(runtime, parent, weights, options);
  }
  write_output(args.output, [&](std::ostream& out) { write_values(out, result); });
}

void setup(CLI::App& app, const char* name, bool root) {
  auto args = std::make_shared<TreefixArgs>();
  auto* command = app.add_subcommand(
      name, root ? "Rootfix: combine each vertex's weight with its ancestors'"
                 : "Leaffix: combine each vertex's weight with its descendants'");
  command->add_option("--tree", args->tree, "tree file: n, then n parent indices (-1 = root)")->required();
  command->add_option("--weights", args->weights, "weights file: n numbers (default: all 1)");
  command->add_option("--op", args->op, "operator: sum, xor, min or max")->capture_default_str();
  command->add_option("--type", args->type, "value type: int32, int64, float or double")->capture_default_str();
  command->add_flag("--exclusive", args->exclusive, "leave the vertex itself out");
  command->add_flag("--accurate", args->accurate,
                    "floating-point sums: carry a wider or compensated sum through the Euler-tour "
                    "scan (about twice the precision; see README)");
  command->add_option("--algorithm", args->algorithm, "auto, euler, levels or sequential")->capture_default_str();
  command->add_option("--output", args->output, "output file (default: standard output)");
  add_device_option(command, args->device);
  command->callback([args, root] {
    switch (parse<ValueType>(args->type)) {
      case ValueType::int32: run_typed<std::int32_t>(*args, root); break;
      case ValueType::int64: run_typed<std::int64_t>(*args, root); break;
      case ValueType::float32: run_typed<float>(*args, root); break;
      case ValueType::float64: run_typed<double>(*args, root); break;
    }
  });
}

void setup_rootfix(CLI::App& app) { setup(app, "rootfix", true); }
void setup_leaffix(CLI::App& app) { setup(app, "leaffix", false); }

TREEFIX_COMMAND("rootfix", setup_rootfix);
TREEFIX_COMMAND("leaffix", setup_leaffix);

}  // namespace
}  // namespace treefix::cli
