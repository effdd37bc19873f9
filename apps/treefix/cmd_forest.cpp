// treefix forest-order: visit orders of every tree of a forest file (linear or binary), on the
// device or the CPU. One line per tree: the tree-local node numbers (as in the file) in visit
// order.
#include <memory>

#include "command.hpp"
#include "output_format.hpp"
#include "treefix/core/error.hpp"
#include "treefix/forest/forest.hpp"
#include "treefix/forest/forest_io.hpp"
#include "treefix/forest/traversal.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/io/text_io.hpp"

namespace treefix::cli {
namespace {

struct ForestOrderOptions {
  std::string forest, output, device;
  Traversal order = Traversal::preorder;
  bool binary = false, cpu = false;
};

template <class Forest>
void write_orders(const ForestOrderOptions& o, const Forest& forest) {
  const Traversal traversal = o.order;
  std::vector<vertex_t> order;
  if (o.cpu) {
    order = traversal_order_cpu(forest, traversal);
  } else {
    if (traversal == Traversal::inorder && !o.binary)
      throw InputError("in-order traversal is defined for binary forests only (use --binary)");
    Runtime& runtime = kept_runtime(o.device);
    auto device = DeviceForest::upload(runtime, forest);
    order = traversal_order(runtime, device, traversal);
  }
  write_output(o.output, [&](std::ostream& out) {
    for (std::size_t t = 0; t < forest.trees(); ++t) {
      const vertex_t base = forest.head[t];
      for (vertex_t k = 0; k < forest.node_count[t]; ++k)
        out << (k ? " " : "") << forest.original[order[base + k]] - base;
      out << "\n";
    }
  });
}

void run_forest_order(const ForestOrderOptions& o) {
  OutputFiles outputs({o.output});
  if (o.binary)
    write_orders(o, read_binary_forest(o.forest));
  else
    write_orders(o, read_linear_forest(o.forest));
  outputs.commit();
}

void setup_forest_order(CLI::App& app) {
  auto o = std::make_shared<ForestOrderOptions>();
  auto* command = add_command(app, "forest-order",
                              "Visit order of every tree of a forest file (one line per tree)", o,
                              run_forest_order);
  command
      ->add_option("--forest", o->forest,
                   "Forest file: tree count, then per tree n and n parents (-1 root); with "
                   "--binary: per tree n and n pairs 'left right'")
      ->required();
  add_enum_option(command, "--order", o->order, "visit order (in: binary forests only)");
  command->add_flag("--binary", o->binary, "The file holds binary trees (left/right links)");
  command->add_flag("--cpu", o->cpu, "Compute on the CPU (the reference)");
  add_output_option(command, o->output, "output file")
      ->check(written_as({}));  // text only: .npy, .json ... refused at once
  add_device_option(command, o->device);
}

TREEFIX_COMMAND("forest-order", setup_forest_order);

}  // namespace
}  // namespace treefix::cli
