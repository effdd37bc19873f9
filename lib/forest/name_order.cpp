// The order of many short strings on a team's threads: a sample sort (forest/name_order.hpp).
#include "forest/name_order.hpp"

#include <algorithm>

#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"

namespace treefix::detail {

namespace {

struct Key {
  std::string_view name;
  std::uint32_t index;
};

bool operator<(const Key& a, const Key& b) {
  const int c = a.name.compare(b.name);
  return c < 0 || (c == 0 && a.index < b.index);
}

// Below this many keys a thread, one sort beats the passes of a sample sort.
constexpr std::size_t min_keys_per_thread = 1024;
// Sample keys per bucket: buckets stay within a few tens of percent of n / buckets.
constexpr std::size_t samples_per_bucket = 32;

}  // namespace

std::vector<std::uint32_t> sorted_order(const std::vector<std::string_view>& names,
                                        ThreadTeam& team) {
  const std::size_t n = names.size();
  if (n > UINT32_MAX) throw CapacityError("sorting names: more than 2^32-1 of them");
  std::vector<Key> keys(n);
  std::vector<std::uint32_t> order(n);
  const unsigned threads = team.size();
  if (threads == 1 || n < min_keys_per_thread * threads) {
    for (std::size_t i = 0; i < n; ++i) keys[i] = {names[i], static_cast<std::uint32_t>(i)};
    std::sort(keys.begin(), keys.end());
    for (std::size_t j = 0; j < n; ++j) order[j] = keys[j].index;
    return order;
  }
  // Buckets: twice the threads, so that uneven buckets still balance.
  const std::size_t buckets = 2 * std::size_t(threads);
  const Ranges slices(n, threads);
  std::vector<Key> splitters;
  {
    const std::size_t count = std::min(n, buckets * samples_per_bucket);
    std::vector<Key> sample(count);
    for (std::size_t s = 0; s < count; ++s) {
      const std::size_t i = s * n / count;
      sample[s] = {names[i], static_cast<std::uint32_t>(i)};
    }
    std::sort(sample.begin(), sample.end());
    for (std::size_t b = 1; b < buckets; ++b) splitters.push_back(sample[b * count / buckets]);
  }
  // Pass 1: each slice's keys and bucket counts; pass 2: the keys scattered bucket by bucket
  // (a slice's keys go after those of earlier slices in the same bucket).
  std::vector<std::uint32_t> bucket_of(n);
  std::vector<std::size_t> start(threads * buckets + 1, 0);  // [bucket][slice], then prefix sums
  team.run([&](unsigned t) {
    std::vector<std::size_t> count(buckets, 0);
    for (std::size_t i = slices.begin(t); i < slices.end(t); ++i) {
      keys[i] = {names[i], static_cast<std::uint32_t>(i)};
      const auto b = static_cast<std::uint32_t>(
          std::upper_bound(splitters.begin(), splitters.end(), keys[i]) - splitters.begin());
      bucket_of[i] = b;
      ++count[b];
    }
    for (std::size_t b = 0; b < buckets; ++b) start[b * threads + t + 1] = count[b];
  });
  for (std::size_t k = 1; k < start.size(); ++k) start[k] += start[k - 1];
  std::vector<Key> sorted(n);
  team.run([&](unsigned t) {
    std::vector<std::size_t> next(buckets);
    for (std::size_t b = 0; b < buckets; ++b) next[b] = start[b * threads + t];
    for (std::size_t i = slices.begin(t); i < slices.end(t); ++i)
      sorted[next[bucket_of[i]]++] = keys[i];
  });
  team.for_each(buckets, [&](std::size_t b) {
    const std::size_t begin = start[b * threads], end = start[(b + 1) * threads];
    std::sort(sorted.begin() + begin, sorted.begin() + end);
    for (std::size_t j = begin; j < end; ++j) order[j] = sorted[j].index;
  });
  return order;
}

}  // namespace treefix::detail
