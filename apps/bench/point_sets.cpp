// Point sets of the spatial suites (point_sets.hpp).
#include "point_sets.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>

#include "treefix/core/error.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/spatial/points_io.hpp"
#include "treefix/spatial/ropes.hpp"

namespace treefix::bench {

double sampled_error(const Bodies& bodies, const std::vector<float>& acc, double eps) {
  const std::size_t n = bodies.size(), samples = std::min<std::size_t>(256, n);
  std::vector<double> err(samples), norm(samples);
  parallel_for_items(samples, 0, [&](std::size_t begin, std::size_t end) {
    for (std::size_t s = begin; s < end; ++s) {
      const std::size_t i = s * (n / samples);
      double ex[3] = {0, 0, 0};
      for (std::size_t j = 0; j < n; ++j) {
        if (j == i) continue;
        double d[3], r2 = eps * eps;
        for (int k = 0; k < 3; ++k) {
          d[k] = double(bodies.position.at(j, k)) - bodies.position.at(i, k);
          r2 += d[k] * d[k];
        }
        const double w = bodies.mass[j] / (r2 * std::sqrt(r2));
        for (int k = 0; k < 3; ++k) ex[k] += w * d[k];
      }
      for (int k = 0; k < 3; ++k) {
        err[s] += (acc[3 * i + k] - ex[k]) * (acc[3 * i + k] - ex[k]);
        norm[s] += ex[k] * ex[k];
      }
    }
  });
  double e = 0, m = 0;
  for (std::size_t s = 0; s < samples; ++s) e += err[s], m += norm[s];
  return std::sqrt(e / m);
}

PointSet uniform_points(std::size_t n, std::uint64_t seed) {
  PointSet p(n, 3);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (auto& c : p.coord) c = u(rng);
  return p;
}

PointsDump::PointsDump(std::string directory) : directory_(std::move(directory)) {
  if (directory_.empty()) return;
  std::filesystem::create_directories(directory_);
  const std::string path = directory_ + "/points_manifest.csv";
  manifest_.open(path);
  if (!manifest_) throw InputError(path + ": cannot write");
  manifest_ << "name,file,n,dim,radius,k,counts_file\n" << std::flush;
}

void PointsDump::add(const std::string& name, const PointSet& points, double radius, int k,
                     const std::vector<std::uint32_t>* counts) {
  if (!enabled()) return;
  if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                             "0123456789-_.") != std::string::npos)
    throw InputError("--dump-dir: '" + name + "' is not a plain name for a point set");
  const std::string file = name + ".npy", counts_file = counts ? name + ".counts.npy" : "";
  write_output(directory_ + "/" + file, [&](std::ostream& out) { write_points_npy(out, points); });
  if (counts) {
    const std::vector<std::int64_t> wide(counts->begin(), counts->end());
    write_output(directory_ + "/" + counts_file,
                 [&](std::ostream& out) { write_npy(out, wide.data(), {wide.size()}); });
  }
  char radius_text[32];
  std::snprintf(radius_text, sizeof radius_text, "%.9g", double(float(radius)));
  manifest_ << name << ',' << file << ',' << points.n << ',' << points.dim << ',' << radius_text
            << ',' << k << ',' << counts_file << '\n'
            << std::flush;
  if (!manifest_) throw Error(directory_ + "/points_manifest.csv: write failed");
}

}  // namespace treefix::bench
