// treefix correlate: 2-point correlation counts (kd-tree) of a point file.
#include <cmath>
#include <memory>

#include "command.hpp"
#include "treefix/core/text_io.hpp"
#include "treefix/spatial/neighbours.hpp"
#include "treefix/spatial/points_io.hpp"

namespace treefix::cli {
namespace {

struct CorrelateArgs {
  std::string points, output, variant = "auto", sort = "auto", device;
  double radius = 0;
};

void setup_correlate(CLI::App& app) {
  auto args = std::make_shared<CorrelateArgs>();
  auto* c = app.add_subcommand(
      "correlate", "2-point correlation: for each point, the points within radius R (itself included)");
  c->add_option("--points", args->points, "point file: 'n d', then n rows of d numbers")->required();
  c->add_option("--radius", args->radius, "radius R >= 0 (squared float distances <= float(R)^2)")
      ->required();
  c->add_option("--output", args->output, "output file, one count per line (default: standard output)");
  c->add_option("--variant", args->variant, "lockstep|independent|recursive|auto (default auto)");
  c->add_option("--sort", args->sort, "on|off|auto: Morton-order the points before the traversal");
  add_device_option(c, args->device);
  c->callback([args] {
    QueryOptions o;
    o.variant = parse<Variant>(args->variant);
    o.sort = parse<SortMode>(args->sort);
    if (!(args->radius >= 0) || !std::isfinite(args->radius))
      throw InputError("--radius must be a finite number >= 0");
    PointSet points = read_points(args->points);
    KdTree tree = build_kd_tree(points);
    Runtime runtime(args->device);
    auto counts = correlation_counts(runtime, tree, points, args->radius, o);
    std::vector<std::int64_t> values(counts.begin(), counts.end());
    write_output(args->output, [&](std::ostream& out) { write_values(out, values); });
  });
}

TREEFIX_COMMAND("correlate", setup_correlate);

}  // namespace
}  // namespace treefix::cli
