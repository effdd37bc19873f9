// treefix correlate: 2-point correlation counts of a point file, end to end on the device:
// upload, kd-tree build, queries (the points themselves), download.
#include <iostream>
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
  OutputFiles outputs({args.output});
  Profile profile;
  PhaseTimes phases;
  PointSet points = phases.measure("read", [&] { return args.input.points(args.points); });
  Runtime runtime = phases.measure("device setup", [&] { return Runtime(args.traversal.device); });
  DevicePoints device =
      phases.measure("upload", [&] { return DevicePoints::upload(runtime, points, &profile); });
  DeviceArray<std::uint32_t> counts(runtime, points.n, "correlation counts");
  DeviceKdTree tree = phases.measure("build", [&] {
    DeviceKdTree built = build_kd_tree(runtime, device, {8, &profile});
    runtime.queue().finish();
    return built;
  });
  phases.measure("query", [&] {
    correlation_counts(runtime, tree, nullptr, args.radius, counts,
                       args.traversal.options<QueryOptions>(&profile));
    runtime.queue().finish();
  });
  auto result = phases.measure("download", [&] { return counts.download(runtime, &profile); });
  std::vector<std::int64_t> values(result.begin(), result.end());
  phases.measure("write", [&] {
    write_output(args.output, [&](std::ostream& out) { write_values(out, values); });
    outputs.commit();
  });
  args.traversal.print_stats(std::cerr, "treefix correlate", phases, profile);
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
      ->required()
      ->check(finite_at_least(0));
  add_output_option(c, args->output, "output file, one count per line");
  args->input.add_to(c);
  args->traversal.add_to(c, "points");
}

TREEFIX_COMMAND("correlate", setup_correlate);

}  // namespace
}  // namespace treefix::cli
