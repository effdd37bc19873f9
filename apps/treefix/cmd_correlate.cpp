// treefix correlate: 2-point correlation counts (kd-tree) of a point file.
#include <cmath>
#include <memory>

#include "point_input.hpp"
#include "traversal_options.hpp"
#include "treefix/core/output_file.hpp"
#include "treefix/core/text_io.hpp"
#include "treefix/core/value_format.hpp"
#include "treefix/spatial/neighbours.hpp"
#include "treefix/spatial/points_io.hpp"

namespace treefix::cli {
namespace {

struct CorrelateArgs {
  std::string points, output;
  double radius = 0;
  TraversalArgs traversal;
  PointInputArgs input;
};

void run_correlate(const CorrelateArgs& args) {
  if (!(args.radius >= 0) || !std::isfinite(args.radius))
    throw InputError("--radius must be a finite number >= 0");
  PointSet points = args.input.points(args.points);
  KdTree tree = build_kd_tree(points);
  Runtime runtime(args.traversal.device);
  auto counts = correlation_counts(runtime, tree, points, args.radius,
                                   args.traversal.options<QueryOptions>());
  std::vector<std::int64_t> values(counts.begin(), counts.end());
  write_output(args.output, [&](std::ostream& out) { write_values(out, values); });
}

void setup_correlate(CLI::App& app) {
  auto args = std::make_shared<CorrelateArgs>();
  auto* c = add_command(
      app, "correlate",
      "2-point correlation: for each point, the points within radius R (itself included)", args,
      run_correlate);
  c->add_option("--points", args->points, std::string("point file: ") + point_file_help)
      ->required();
  c->add_option("--radius", args->radius, "radius R >= 0 (squared float distances <= float(R)^2)")
      ->required();
  add_output_option(c, args->output, "output file, one count per line");
  args->input.add_to(c);
  args->traversal.add_to(c, "points");
}

TREEFIX_COMMAND("correlate", setup_correlate);

}  // namespace
}  // namespace treefix::cli
