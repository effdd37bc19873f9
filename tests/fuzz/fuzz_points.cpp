// Fuzz target: point and body files in text ("n d" then rows) and .xyz (rows only), through
// read_points and read_bodies. An accepted file holds n * d finite coordinates.
#include <cmath>

#include "fuzz_support.hpp"
#include "treefix/spatial/points_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace treefix;
  const std::string& path = fuzz::as_file(data, size);
  for (PointFormat format : {PointFormat::text, PointFormat::xyz}) {
    PointSet points;
    if (fuzz::expect_refusal([&] { points = read_points(path, format); })) {
      fuzz::require(points.dim >= 1 && points.dim <= 16, "1 to 16 coordinates");
      fuzz::require(points.coord.size() == points.n * static_cast<std::size_t>(points.dim),
                    "n * d coordinates");
      for (float x : points.coord) fuzz::require(std::isfinite(x), "finite coordinates");
    }
    fuzz::expect_refusal([&] { read_bodies(path, format); });
  }
  return 0;
}
