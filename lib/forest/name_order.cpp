// The order of many short strings on a team's threads: a sample sort (forest/name_order.hpp).
#include "forest/name_order.hpp"

#include <algorithm>

#include "forest/unfilled_array.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"

namespace treefix::detail {

namespace {

// A name with 8 of its bytes, from the first where names differ, packed big-endian (zeros past its
// end): most comparisons are settled by one integer comparison, without touching the bytes.
// Zeros sort first and a name that ends sorts before its extensions, so a smaller prefix means a
// smaller name; equal prefixes fall back to the whole names.
struct Key {
  std::uint64_t prefix;
  const char* data;
  std::uint32_t size;
  std::uint32_t index;
};

bool operator<(const Key& a, const Key& b) {
  if (a.prefix != b.prefix) return a.prefix < b.prefix;
  const int c = std::string_view(a.data, a.size).compare(std::string_view(b.data, b.size));
  return c < 0 || (c == 0 && a.index < b.index);
}

Key key_of(const NameRef* names, std::size_t i, std::size_t common) {
  const NameRef name = names[i];
  std::uint64_t prefix = 0;
  for (std::size_t k = common; k < common + 8; ++k)
    prefix = prefix << 8 | (k < name.size ? static_cast<unsigned char>(name.data[k]) : 0u);
  return {prefix, name.data, name.size, static_cast<std::uint32_t>(i)};
}

// The length of the prefix that names[begin, end) share with names[0].
std::size_t common_prefix(const NameRef* names, std::size_t begin, std::size_t end) {
  const std::string_view first = names[0].view();
  std::size_t common = first.size();
  for (std::size_t i = begin; i < end && common > 0; ++i) {
    const std::string_view name = names[i].view();
    const std::size_t limit = std::min(common, name.size());
    std::size_t k = 0;
    while (k < limit && name[k] == first[k]) ++k;
    common = k;
  }
  return common;
}

// Below this many keys a thread, one sort beats the passes of a sample sort.
constexpr std::size_t min_keys_per_thread = 256;
// Sample keys per bucket: buckets stay within a few tens of percent of n / buckets.
constexpr std::size_t samples_per_bucket = 32;

}  // namespace

std::vector<std::uint32_t> sorted_order(const NameRef* names, std::size_t n, unsigned threads) {
  if (n > UINT32_MAX) throw CapacityError("sorting names: more than 2^32-1 of them");
  std::vector<std::uint32_t> order(n);
  if (n == 0) return order;
  if (threads == 1 || n < min_keys_per_thread * threads) {
    const std::size_t common = common_prefix(names, 0, n);
    UnfilledArray<Key> keys(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = key_of(names, i, common);
    std::sort(keys.begin(), keys.end());
    for (std::size_t j = 0; j < n; ++j) order[j] = keys[j].index;
    return order;
  }
  // Buckets: twice the threads, so that uneven buckets still balance.
  const std::size_t buckets = 2 * std::size_t(threads);
  const Ranges slices(n, threads);  // n >= threads: one slice a thread
  std::vector<std::size_t> common_of(threads);
  run_on_threads(threads, [&](unsigned t) {
    common_of[t] = common_prefix(names, slices.begin(t), slices.end(t));
  });
  const std::size_t common = *std::min_element(common_of.begin(), common_of.end());
  std::vector<Key> splitters;
  {
    const std::size_t count = std::min(n, buckets * samples_per_bucket);
    std::vector<Key> sample(count);
    for (std::size_t s = 0; s < count; ++s) sample[s] = key_of(names, s * n / count, common);
    std::sort(sample.begin(), sample.end());
    for (std::size_t b = 1; b < buckets; ++b) splitters.push_back(sample[b * count / buckets]);
  }
  // Pass 1: each slice's bucket counts; pass 2: its keys scattered bucket by bucket (a slice's
  // keys go after those of earlier slices in the same bucket). Keys are cheap to make twice.
  UnfilledArray<std::uint32_t> bucket_of(n);
  std::vector<std::size_t> start(threads * buckets + 1, 0);  // [bucket][slice], then prefix sums
  run_on_threads(threads, [&](unsigned t) {
    std::vector<std::size_t> count(buckets, 0);
    for (std::size_t i = slices.begin(t); i < slices.end(t); ++i) {
      const Key key = key_of(names, i, common);
      const auto b = static_cast<std::uint32_t>(
          std::upper_bound(splitters.begin(), splitters.end(), key) - splitters.begin());
      bucket_of[i] = b;
      ++count[b];
    }
    for (std::size_t b = 0; b < buckets; ++b) start[b * threads + t + 1] = count[b];
  });
  for (std::size_t k = 1; k < start.size(); ++k) start[k] += start[k - 1];
  UnfilledArray<Key> sorted(n);
  run_on_threads(threads, [&](unsigned t) {
    std::vector<std::size_t> next(buckets);
    for (std::size_t b = 0; b < buckets; ++b) next[b] = start[b * threads + t];
    for (std::size_t i = slices.begin(t); i < slices.end(t); ++i)
      sorted[next[bucket_of[i]]++] = key_of(names, i, common);
  });
  parallel_for(buckets, threads, [&](std::size_t b) {
    const std::size_t begin = start[b * threads], end = start[(b + 1) * threads];
    std::sort(sorted.begin() + begin, sorted.begin() + end);
    for (std::size_t j = begin; j < end; ++j) order[j] = sorted[j].index;
  });
  return order;
}

}  // namespace treefix::detail
