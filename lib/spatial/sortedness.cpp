// Whether a traversal's items come sorted, found on a sample (the automatic variant's test,
// include/treefix/spatial/ropes.hpp): the spread of windows of neighbouring items against that of
// windows of items drawn anywhere.
#include <algorithm>
#include <random>
#include <vector>

#include "treefix/primitives/detail/permute_rows.hpp"
#include "treefix/core/error.hpp"
#include "treefix/spatial/ropes.hpp"

namespace treefix {
namespace {

constexpr std::size_t kWindows = 32;  // of each kind

// The sampled items: kWindows windows of consecutive items evenly spaced over [0, n), then as
// many windows of items drawn anywhere. Empty when fewer than two windows of items.
std::vector<std::size_t> sampled_items(std::size_t n, std::size_t window) {
  std::vector<std::size_t> items;
  if (window == 0 || n < 2 * window) return items;
  const std::size_t windows = std::min(kWindows, n / window);
  for (std::size_t w = 0; w < windows; ++w) {
    const std::size_t start = (n - window) * w / std::max<std::size_t>(1, windows - 1);
    for (std::size_t i = 0; i < window; ++i) items.push_back(start + i);
  }
  std::mt19937_64 rng(n);
  for (std::size_t i = 0; i < windows * window; ++i) items.push_back(rng() % n);
  return items;
}

// The median spreads of the two halves of `sample` (values[k * m + j]: coordinate k of sampled
// item j, m sampled items, windows of `window`).
NeighbourSpread spread_of(const std::vector<float>& values, std::size_t m, int dim,
                          std::size_t window) {
  auto median_spread = [&](std::size_t first, std::size_t last) {
    std::vector<double> spreads;
    for (std::size_t w = first; w < last; w += window) {
      double sum = 0;
      for (int k = 0; k < dim; ++k) {
        double mean = 0;
        for (std::size_t j = w; j < w + window; ++j) mean += values[k * m + j];
        mean /= double(window);
        for (std::size_t j = w; j < w + window; ++j) {
          const double d = values[k * m + j] - mean;
          sum += d * d;
        }
      }
      spreads.push_back(sum / double(window));
    }
    std::nth_element(spreads.begin(), spreads.begin() + spreads.size() / 2, spreads.end());
    return spreads[spreads.size() / 2];
  };
  NeighbourSpread spread;
  spread.measured = true;
  spread.neighbours = median_spread(0, m / 2);
  spread.anywhere = median_spread(m / 2, m);
  return spread;
}

}  // namespace

bool NeighbourSpread::sorted() const { return measured && ratio() <= kSortedSpreadRatio; }

NeighbourSpread neighbour_spread(const PointSet& items, std::size_t window) {
  const auto sample = sampled_items(items.n, window);
  if (sample.empty()) return {};
  const std::size_t m = sample.size();
  std::vector<float> values(m * static_cast<std::size_t>(items.dim));
  for (int k = 0; k < items.dim; ++k)
    for (std::size_t j = 0; j < m; ++j) values[k * m + j] = items.at(sample[j], k);
  return spread_of(values, m, items.dim, window);
}

NeighbourSpread neighbour_spread(Runtime& runtime, const cl::Buffer& coord, std::size_t rows,
                                 int dim, std::size_t items, std::size_t window,
                                 const cl::Buffer* item_row) {
  const auto sample = sampled_items(items, window);
  if (sample.empty() || dim < 1) return {};
  const std::size_t m = sample.size();
  if (rows * static_cast<std::size_t>(dim) > static_cast<std::size_t>(INT32_MAX))
    throw CapacityError("sortedness sample: more than 2^31 coordinates");
  return translate_device_errors("sortedness sample", [&] {
    std::vector<std::int32_t> row(sample.begin(), sample.end());
    if (item_row) {  // the rows of the sampled items
      auto at = DeviceArray<std::int32_t>::upload(runtime, row);
      DeviceArray<std::int32_t> found(runtime, m, "sampled rows");
      detail::Permuter(runtime, "int", {})
          .gather_rows(m, 1, at.buffer(), *item_row, found.buffer());
      row = found.download(runtime);
    }
    std::vector<std::int32_t> flat(m * static_cast<std::size_t>(dim));  // k * rows + row
    for (int k = 0; k < dim; ++k)
      for (std::size_t j = 0; j < m; ++j)
        flat[k * m + j] = static_cast<std::int32_t>(static_cast<std::size_t>(k) * rows + row[j]);
    auto at = DeviceArray<std::int32_t>::upload(runtime, flat);
    DeviceArray<float> values(runtime, flat.size(), "sampled coordinates");
    detail::Permuter(runtime, "float", {})
        .gather_rows(flat.size(), 1, at.buffer(), coord, values.buffer());
    return spread_of(values.download(runtime), m, dim, window);
  });
}

}  // namespace treefix
