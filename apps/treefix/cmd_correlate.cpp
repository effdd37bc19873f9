// treefix correlate: 2-point correlation counts of a point file, end to end on the device:
// upload, kd-tree build, queries (the points themselves), download.
#include <iostream>
#include <memory>

#include "output_format.hpp"
#include "spatial_options.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/io/text_io.hpp"
#include "treefix/io/value_format.hpp"
#include "treefix/spatial/neighbours.hpp"
#include "treefix/spatial/points_io.hpp"
#include "treefix/treefix/tree_io.hpp"

namespace treefix::cli {
namespace {

struct CorrelateArgs {
  std::string points;
  double radius = 0;
  SpatialArgs spatial;
};

void run_correlate(const CorrelateArgs& args) {
  OutputFiles outputs({args.spatial.output});
  Profile profile;
  PhaseTimes phases;
  PointSet points = phases.measure("read", [&] { return args.spatial.points(args.points); });
  Runtime& runtime = phases.measure(
      "device setup", [&]() -> Runtime& { return kept_runtime(args.spatial.device); });
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
                       args.spatial.options<QueryOptions>(&profile));
    runtime.queue().finish();
  });
  auto result = phases.measure("download", [&] { return counts.download(runtime, &profile); });
  std::vector<std::int64_t> values(result.begin(), result.end());
  phases.measure("write", [&] {
    write_values_file(args.spatial.output, values);  // text, or .npy (int64)
    outputs.commit();
  });
  args.spatial.print_stats(std::cerr, "treefix correlate", phases, profile);
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
  args->spatial.add_to(c, "points", "one count per line, or .npy (int64)")
      ->check(written_as({OutputFormat::npy}));
}

TREEFIX_COMMAND("correlate", setup_correlate);

}  // namespace
}  // namespace treefix::cli
