// treefix knn: the k nearest data points of each query (kd-tree or vp-tree).
#include <cmath>
#include <cstdio>
#include <memory>

#include "point_input.hpp"
#include "traversal_options.hpp"
#include "treefix/core/output_file.hpp"
#include "treefix/core/text_io.hpp"
#include "treefix/spatial/neighbours.hpp"
#include "treefix/spatial/points_io.hpp"

namespace treefix::cli {
namespace {

struct KnnArgs {
  std::string points, queries, output, index = "kd";
  int k = 1;
  TraversalArgs traversal;
  PointInputArgs input;
};

void run_knn(const KnnArgs& args) {
  if (args.index != "kd" && args.index != "vp")
    throw InputError("--index must be kd or vp, not '" + args.index + "'");
  PointSet points = args.input.points(args.points);
  PointSet queries = args.input.points(args.queries);
  if (queries.dim != points.dim)
    throw InputError(args.queries + ": queries have " + std::to_string(queries.dim) +
                     " coordinates, the points of " + args.points + " have " +
                     std::to_string(points.dim));
  Runtime runtime(args.traversal.device);
  const auto o = args.traversal.options<QueryOptions>();
  Neighbours result = args.index == "kd" ? knn(runtime, build_kd_tree(points), queries, args.k, o)
                                         : knn(runtime, build_vp_tree(points), queries, args.k, o);
  write_output(args.output, [&](std::ostream& out) {
    char buf[48];
    for (std::size_t q = 0; q < queries.n; ++q) {
      for (int j = 0; j < result.k; ++j) {
        std::snprintf(buf, sizeof buf, "%s%d %.9g", j ? " " : "", result.index[q * result.k + j],
                      double(std::sqrt(result.d2[q * result.k + j])));
        out << buf;
      }
      out << '\n';
    }
  });
}

void setup_knn(CLI::App& app) {
  auto args = std::make_shared<KnnArgs>();
  auto* c = add_command(app, "knn",
                        "k nearest neighbours: per query, k pairs 'index distance', nearest first",
                        args, run_knn);
  c->add_option("--points", args->points, std::string("data point file: ") + point_file_help)
      ->required();
  c->add_option("--queries", args->queries, "query point file, same dimension")->required();
  c->add_option("-k", args->k, "neighbours per query (1..64, at most n)")->required();
  c->add_option("--index", args->index, "kd|vp: kd-tree or vantage-point tree (default kd)");
  add_output_option(c, args->output, "output file");
  args->input.add_to(c);
  args->traversal.add_to(c, "queries");
}

TREEFIX_COMMAND("knn", setup_knn);

}  // namespace
}  // namespace treefix::cli
