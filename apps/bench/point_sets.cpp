// Point sets of the spatial suites (point_sets.hpp).
#include "point_sets.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>

#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/spatial/points_io.hpp"
#include "treefix/spatial/ropes.hpp"

namespace treefix::bench {

double sampled_error(const Bodies& bodies, const std::vector<float>& acc, double eps) {
  const std::size_t n = bodies.size(), samples = std::min<std::size_t>(256, n);
  std::vector<double> err(samples), norm(samples);
  parallel_for_ranges(samples, kRopeItemsPerPiece, 0, [&](std::size_t begin, std::size_t end) {
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

PointSet uniform_points(std::size_t n, std::uint64_t seed, int dim) {
  PointSet p(n, dim);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (auto& c : p.coord) c = u(rng);
  return p;
}

Bodies random_bodies(std::size_t n, std::uint64_t seed) {
  Bodies b(n);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f), v(-1.0f, 1.0f);
  for (auto& c : b.position.coord) c = u(rng);
  for (auto& c : b.velocity.coord) c = v(rng);
  std::fill(b.mass.begin(), b.mass.end(), n ? 1.0f / float(n) : 0.0f);
  return b;
}

namespace {
std::vector<std::int32_t> partly_sorted_order(const PointSet& points, double displaced,
                                              std::uint64_t seed) {
  if (!(displaced >= 0 && displaced <= 1))
    throw InputError("the displaced fraction must lie in [0, 1], not " + std::to_string(displaced));
  std::vector<std::int32_t> order = morton_order(points);
  std::mt19937_64 rng(seed);
  const auto swaps = static_cast<std::size_t>(displaced * double(order.size()) / 2);
  for (std::size_t s = 0; s < swaps; ++s)
    std::swap(order[rng() % order.size()], order[rng() % order.size()]);
  return order;
}
}  // namespace

PointSet partly_sorted(const PointSet& points, double displaced, std::uint64_t seed) {
  return points.permuted(partly_sorted_order(points, displaced, seed));
}

Bodies partly_sorted(const Bodies& bodies, double displaced, std::uint64_t seed) {
  const auto order = partly_sorted_order(bodies.position, displaced, seed);
  Bodies b(bodies.size());
  b.position = bodies.position.permuted(order);
  b.velocity = bodies.velocity.permuted(order);
  for (std::size_t i = 0; i < order.size(); ++i) b.mass[i] = bodies.mass[order[i]];
  return b;
}

PointSet clustered_points(std::size_t n, int dim, std::size_t clusters, std::uint64_t seed) {
  if (clusters == 0) throw InputError("clustered points need at least one cluster");
  PointSet p(n, dim);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<float> centre(clusters * static_cast<std::size_t>(dim));
  for (auto& c : centre) c = u(rng);
  std::vector<double> share(clusters);
  for (std::size_t c = 0; c < clusters; ++c) share[c] = 1.0 / double(c + 1);
  std::discrete_distribution<std::size_t> pick(share.begin(), share.end());
  std::normal_distribution<float> spread(0.0f, 0.01f);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = pick(rng);
    for (int k = 0; k < dim; ++k)
      p.at(i, k) = std::clamp(centre[c * dim + k] + spread(rng), 0.0f, 1.0f);
  }
  return p;
}

double radius_for_neighbours(const PointSet& points, double neighbours) {
  const std::size_t n = points.n, samples = std::min<std::size_t>(256, n);
  if (samples == 0) return 0;
  // the smallest `keep` squared distances of each sample: enough for any radius below the one
  // sought (a sample counts at most `keep` neighbours, which only caps the densest ones)
  const std::size_t keep = std::min<std::size_t>(n, static_cast<std::size_t>(64 * neighbours) + 1);
  std::vector<std::vector<double>> nearest(samples);
  parallel_for_ranges(samples, kRopeItemsPerPiece, 0, [&](std::size_t begin, std::size_t end) {
    std::vector<double> d2(n);
    for (std::size_t s = begin; s < end; ++s) {
      const std::size_t q = s * (n / samples);
      for (std::size_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int k = 0; k < points.dim; ++k) {
          const double d = double(points.at(j, k)) - points.at(q, k);
          sum += d * d;
        }
        d2[j] = sum;
      }
      std::nth_element(d2.begin(), d2.begin() + (keep - 1), d2.end());
      nearest[s].assign(d2.begin(), d2.begin() + keep);
      std::sort(nearest[s].begin(), nearest[s].end());
    }
  });
  auto mean_count = [&](double r2) {
    double total = 0;
    for (const auto& d : nearest)
      total += double(std::upper_bound(d.begin(), d.end(), r2) - d.begin());
    return total / double(samples);
  };
  double lo = 0, hi = double(points.dim);  // the unit cube's squared diagonal holds every point
  for (int step = 0; step < 60; ++step) {
    const double mid = 0.5 * (lo + hi);
    (mean_count(mid) < neighbours ? lo : hi) = mid;
  }
  return std::sqrt(hi);
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
