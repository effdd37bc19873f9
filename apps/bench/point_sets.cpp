// Point sets of the spatial suites (point_sets.hpp).
#include "point_sets.hpp"

#include <cstdio>
#include <filesystem>
#include <random>

#include "treefix/core/error.hpp"
#include "treefix/core/npy.hpp"
#include "treefix/core/output_file.hpp"
#include "treefix/spatial/points_io.hpp"

namespace treefix::bench {

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
