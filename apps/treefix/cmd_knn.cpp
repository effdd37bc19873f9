// treefix knn: the k nearest data points of each query. kd-tree: end to end on the device
// (upload, build, query, download); vp-tree: built on the host, queried on the device.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "output_format.hpp"
#include "spatial_options.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/io/npz.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/io/text_io.hpp"
#include "treefix/spatial/neighbours.hpp"
#include "treefix/spatial/points_io.hpp"

namespace treefix::cli {
namespace {

struct KnnArgs {
  std::string points, queries, index = "kd";
  int k = 1;
  bool exclude_self = false;
  SpatialArgs spatial;
};

// The k + 1 neighbours of each point among the points themselves, less the point itself: its
// own index where it is in the list, else (k + 1 duplicates at distance 0) the last entry.
Neighbours without_self(const Neighbours& found, std::size_t queries) {
  Neighbours kept;
  kept.k = found.k - 1;
  kept.index.resize(queries * static_cast<std::size_t>(kept.k));
  kept.d2.resize(kept.index.size());
  parallel_for(queries, [&](std::size_t q) {
    const std::size_t from = q * static_cast<std::size_t>(found.k);
    std::size_t to = q * static_cast<std::size_t>(kept.k);
    bool skipped = false;
    for (int j = 0; j < found.k; ++j) {
      const bool self = !skipped && found.index[from + j] == static_cast<std::int32_t>(q);
      if (self || (j == found.k - 1 && !skipped)) {
        skipped = true;
        continue;
      }
      kept.index[to] = found.index[from + j];
      kept.d2[to++] = found.d2[from + j];
    }
  });
  return kept;
}

// .npz: `indices` (m, k) int32 and `distances` (m, k) float32 (Euclidean, not squared).
void write_neighbours_npz(std::ostream& out, const Neighbours& result, std::size_t queries) {
  std::vector<float> distance(result.d2.size());
  parallel_for(distance.size(), [&](std::size_t i) { distance[i] = std::sqrt(result.d2[i]); });
  const std::vector<std::size_t> shape{queries, static_cast<std::size_t>(result.k)};
  NpzWriter archive(out, false);
  archive.add("indices", "<i4", shape, result.index.data(), result.index.size() * 4);
  archive.add("distances", "<f4", shape, distance.data(), distance.size() * 4);
  archive.finish();
}

Neighbours kd_neighbours(Runtime& runtime, const PointSet& points, const PointSet& queries, int k,
                         const SpatialArgs& traversal, Profile& profile, PhaseTimes& phases) {
  // Named members, not a structured binding: C++17 lambdas cannot capture a binding.
  auto uploaded = phases.measure("upload", [&] {
    return std::make_pair(DevicePoints::upload(runtime, points, &profile),
                          DevicePoints::upload(runtime, queries, &profile));
  });
  DevicePoints& data = uploaded.first;
  DevicePoints& asked = uploaded.second;
  DeviceKdTree tree = phases.measure("build", [&] {
    DeviceKdTree built = build_kd_tree(runtime, data, {8, &profile});
    runtime.queue().finish();
    return built;
  });
  const std::size_t values = queries.n * static_cast<std::size_t>(k);
  DeviceArray<std::int32_t> index(runtime, values, "neighbour indices");
  DeviceArray<float> d2(runtime, values, "neighbour distances");
  phases.measure("query", [&] {
    knn(runtime, tree, &asked, k, index, d2, traversal.options<QueryOptions>(&profile));
    runtime.queue().finish();
  });
  return phases.measure("download", [&] {
    Neighbours result;
    result.k = k;
    result.index = index.download(runtime, &profile);
    result.d2 = d2.download(runtime, &profile);
    return result;
  });
}

// The lines `index distance ...`, formatted on every host core a batch of slices at a time and
// written in order (8M pairs take seconds on one core).
void write_neighbours(std::ostream& out, const Neighbours& result, std::size_t queries) {
  constexpr std::size_t kRowsPerSlice = 4096;
  const std::size_t batch = 4 * std::max(1u, host_threads());
  for (std::size_t first = 0; first < queries; first += batch * kRowsPerSlice) {
    const std::size_t rows = std::min(queries - first, batch * kRowsPerSlice);
    const Ranges slices(rows, batch, kRowsPerSlice);
    std::vector<std::string> text(slices.count);
    parallel_for(slices.count, [&](std::size_t s) {
      char buf[48];
      for (std::size_t q = first + slices.begin(s); q < first + slices.end(s); ++q) {
        for (int j = 0; j < result.k; ++j) {
          const std::size_t at = q * result.k + j;
          std::snprintf(buf, sizeof buf, "%s%d %.9g", j ? " " : "", result.index[at],
                        double(std::sqrt(result.d2[at])));
          text[s] += buf;
        }
        text[s] += '\n';
      }
    });
    for (const std::string& t : text) out << t;
  }
}

void run_knn(const KnnArgs& args) {
  OutputFiles outputs({args.spatial.output});
  Profile profile;
  PhaseTimes phases;
  PointSet points = phases.measure("read", [&] { return args.spatial.points(args.points); });
  // Without --queries the points query themselves.
  PointSet queries = args.queries.empty() ? points : phases.measure("read", [&] {
    return args.spatial.points(args.queries);
  });
  const int k = args.k + (args.exclude_self ? 1 : 0);
  if (args.exclude_self && !args.queries.empty())
    throw InputError("knn --exclude-self: the points query themselves (leave out --queries)");
  if (k > max_knn_k)
    throw InputError("knn -k " + std::to_string(args.k) + " --exclude-self: at most " +
                     std::to_string(max_knn_k - 1) + " neighbours besides the point itself");
  if (queries.dim != points.dim)
    throw InputError(args.queries + ": queries have " + std::to_string(queries.dim) +
                     " coordinates, the points of " + args.points + " have " +
                     std::to_string(points.dim));
  Runtime& runtime = phases.measure(
      "device setup", [&]() -> Runtime& { return kept_runtime(args.spatial.device); });
  Neighbours result;
  if (args.index == "kd") {
    result = kd_neighbours(runtime, points, queries, k, args.spatial, profile, phases);
  } else {
    VpTree tree = phases.measure("build", [&] { return build_vp_tree(points); });
    result = phases.measure("query", [&] {
      return knn(runtime, tree, queries, k, args.spatial.options<QueryOptions>(&profile));
    });
  }
  if (args.exclude_self) result = without_self(result, queries.n);
  phases.measure("write", [&] {
    write_output(args.spatial.output, [&](std::ostream& out) {
      switch (output_format(args.spatial.output, {OutputFormat::npy, OutputFormat::npz})) {
        case OutputFormat::npz:
          return write_neighbours_npz(out, result, queries.n);
        case OutputFormat::npy:  // the indices alone, (m, k) int32
          return write_npy(out, result.index.data(),
                           {queries.n, static_cast<std::size_t>(result.k)});
        default:
          return write_neighbours(out, result, queries.n);
      }
    });
    outputs.commit();
  });
  args.spatial.print_stats(std::cerr, "treefix knn", phases, profile);
}

void setup_knn(CLI::App& app) {
  auto args = std::make_shared<KnnArgs>();
  auto* c = add_command(app, "knn",
                        "k nearest neighbours: per query, k pairs 'index distance', nearest first "
                        "(.npz: indices and distances, .npy: indices)",
                        args, run_knn);
  c->add_option("--points", args->points, std::string("data point file: ") + point_file_help)
      ->required();
  c->add_option("--queries", args->queries,
                "query point file, same dimension (default: the points query themselves)");
  c->add_flag("--exclude-self", args->exclude_self,
              "without --queries: leave each point out of its own list (k <= 63)");
  c->add_option("-k", args->k, "neighbours per query (1..64, at most n)")
      ->required()
      ->transform(integer_in(1, 64));
  c->add_option("--index", args->index,
                "kd|vp: kd-tree built on the device, or vantage-point tree (default kd)")
      ->check(CLI::IsMember({"kd", "vp"}));
  args->spatial
      .add_to(c, "queries",
              "per query, k pairs 'index distance', nearest first; .npz: arrays 'indices' "
              "(m, k) int32 and 'distances' (m, k) float32; .npy: the indices alone")
      ->check(written_as({OutputFormat::npy, OutputFormat::npz}));
}

TREEFIX_COMMAND("knn", setup_knn);

}  // namespace
}  // namespace treefix::cli
