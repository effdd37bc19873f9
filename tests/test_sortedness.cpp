// The automatic variant's run-time sortedness test (treefix/spatial/ropes.hpp: neighbour_spread)
// on sorted, shuffled and partly sorted items, on the host and on the device, and the choice it
// drives.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "fixture.hpp"
#include "treefix/spatial/device_build.hpp"
#include "treefix/spatial/nbody.hpp"
#include "treefix/spatial/ropes.hpp"

using namespace treefix;

namespace {

PointSet uniform(std::size_t n, std::uint64_t seed) {
  PointSet p(n, 3);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(0, 1);
  for (auto& c : p.coord) c = u(rng);
  return p;
}

// Morton order, then `displaced` of the positions swapped with random others.
PointSet partly_sorted(const PointSet& points, double displaced, std::uint64_t seed) {
  std::vector<std::int32_t> order = morton_order(points);
  std::mt19937_64 rng(seed);
  const auto swaps = static_cast<std::size_t>(displaced * double(points.n) / 2);
  for (std::size_t s = 0; s < swaps; ++s)
    std::swap(order[rng() % order.size()], order[rng() % order.size()]);
  return points.permuted(order);
}

// Sorted runs of `run` points, the runs in shuffled order.
PointSet shuffled_runs(const PointSet& points, std::size_t run, std::uint64_t seed) {
  const std::vector<std::int32_t> sorted = morton_order(points);
  std::vector<std::size_t> runs((points.n + run - 1) / run);
  std::iota(runs.begin(), runs.end(), 0);
  std::shuffle(runs.begin(), runs.end(), std::mt19937_64(seed));
  std::vector<std::int32_t> order;
  for (std::size_t r : runs)
    for (std::size_t i = r * run; i < std::min(points.n, (r + 1) * run); ++i)
      order.push_back(sorted[i]);
  return points.permuted(order);
}

}  // namespace

TEST_CASE("sortedness: sampled on sorted, shuffled and partly sorted points") {
  const PointSet points = uniform(20011, 3);  // a prime: windows do not tile it
  const std::size_t window = 32;
  struct Case {
    const char* name;
    PointSet items;
    bool sorted;
  };
  const std::vector<Case> cases = {
      {"shuffled (uniform, as drawn)", points, false},
      {"Morton order", partly_sorted(points, 0, 1), true},
      {"1% of positions displaced", partly_sorted(points, 0.01, 2), true},
      {"50% displaced", partly_sorted(points, 0.5, 3), false},
      {"sorted runs of 1024, shuffled", shuffled_runs(points, 1024, 4), true},
      {"sorted runs of 8, shuffled", shuffled_runs(points, 8, 5), false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const NeighbourSpread spread = neighbour_spread(c.items, window);
    CAPTURE(spread.ratio());
    CHECK(spread.measured);
    CHECK(spread.sorted() == c.sorted);
  }
  // Morton order in 3-D: a window of 32 of 20011 points is a small cell (about (32/n)^(2/3) of
  // the spread); shuffled near 1.
  CHECK(neighbour_spread(cases[1].items, window).ratio() < 0.05);
  CHECK(neighbour_spread(cases[0].items, window).ratio() > 0.5);
  // Half sorted, half shuffled: the median window decides (most windows must be neighbours).
  PointSet half = cases[1].items;
  const auto n = half.n;
  for (int k = 0; k < 3; ++k)
    std::copy(points.coord.begin() + k * n + n / 2, points.coord.begin() + (k + 1) * n,
              half.coord.begin() + k * n + n / 2);
  CHECK_FALSE(neighbour_spread(half, window).sorted());
  // Too few items to tell: not measured, not sorted; coincident points: ratio 0, sorted.
  CHECK_FALSE(neighbour_spread(uniform(63, 1), window).measured);
  CHECK_FALSE(neighbour_spread(uniform(63, 1), window).sorted());
  CHECK(neighbour_spread(PointSet(1000, 3), window).sorted());
}

TEST_CASE("sortedness: the device sample equals the host's, through an item-to-row map too") {
  auto& rt = test::runtime();
  const PointSet items = partly_sorted(uniform(5003, 7), 0.2, 8);
  const NeighbourSpread host = neighbour_spread(items, 32);
  const auto coord = DeviceArray<float>::upload(rt, items.coord);
  const NeighbourSpread device = neighbour_spread(rt, coord.buffer(), items.n, 3, items.n, 32);
  CHECK(device.neighbours == host.neighbours);
  CHECK(device.anywhere == host.anywhere);
  // The same items stored in reverse, reached through item_row[i] = n - 1 - i.
  PointSet reversed(items.n, 3);
  std::vector<std::int32_t> row(items.n);
  for (std::size_t i = 0; i < items.n; ++i) {
    row[i] = static_cast<std::int32_t>(items.n - 1 - i);
    for (int k = 0; k < 3; ++k) reversed.at(row[i], k) = items.at(i, k);
  }
  const auto stored = DeviceArray<float>::upload(rt, reversed.coord);
  const auto rows = DeviceArray<std::int32_t>::upload(rt, row);
  const NeighbourSpread mapped =
      neighbour_spread(rt, stored.buffer(), items.n, 3, items.n, 32, &rows.buffer());
  CHECK(mapped.neighbours == host.neighbours);
  CHECK(mapped.anywhere == host.anywhere);
}

TEST_CASE("sortedness: the automatic variant asks the sample only when it decides") {
  auto& rt = test::runtime();
  test::ScopedTuning tuning;
  tuning->set("lockstep_when_coherent", true);  // as on a GPU
  TraversalPieces coherent;
  coherent.coherent = true;
  TraversalPieces guided = coherent;
  guided.guided = true;
  int asked = 0;
  auto says = [&](bool sorted) {
    return [&asked, sorted] {
      ++asked;
      NeighbourSpread s;
      s.measured = true;
      s.neighbours = sorted ? 0.001 : 1;
      s.anywhere = 1;
      return s;
    };
  };
  CHECK(choose_variant(rt, Variant::automatic, coherent, false, says(true)) == Variant::lockstep);
  CHECK(choose_variant(rt, Variant::automatic, coherent, false, says(false)) ==
        Variant::independent);
  CHECK(asked == 2);
  CHECK(choose_variant(rt, Variant::automatic, coherent, true, says(false)) == Variant::lockstep);
  CHECK(choose_variant(rt, Variant::automatic, guided, false, says(true)) == Variant::independent);
  CHECK(choose_variant(rt, Variant::lockstep, coherent, false, says(false)) == Variant::lockstep);
  CHECK(asked == 2);  // the library sorted, a guided traversal, a variant asked for: no sample
  tuning->set("lockstep_when_coherent", false);  // as on a CPU
  CHECK(choose_variant(rt, Variant::automatic, coherent, false, says(true)) ==
        Variant::independent);
  CHECK(asked == 2);
  // Barnes-Hut on bodies in the caller's order: Morton-ordered bodies go lockstep, shuffled ones
  // independent (the library does not sort them: SortMode::off).
  tuning->set("lockstep_when_coherent", true);
  Bodies bodies(3000);
  bodies.position = uniform(3000, 11);
  std::fill(bodies.mass.begin(), bodies.mass.end(), 1.0f / 3000);
  GravityOptions options;
  options.sort = SortMode::off;
  Variant chosen = Variant::automatic;
  options.chosen = &chosen;
  const auto shuffled_acc = accelerations(rt, bodies, options);
  CHECK(chosen == Variant::independent);
  Bodies ordered = bodies;
  ordered.position = bodies.position.permuted(morton_order(bodies.position));
  accelerations(rt, ordered, options);
  CHECK(chosen == Variant::lockstep);
  CHECK(shuffled_acc.size() == 3 * 3000);
}
