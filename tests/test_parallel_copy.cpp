// parallel_memcpy: every size (empty, below and around the slice grain, large, odd offsets), and
// callers at once (sharing the host pool), bytes exact.
#include <doctest/doctest.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "treefix/core/parallel.hpp"

using namespace treefix;

namespace {

std::vector<unsigned char> pattern(std::size_t n, std::uint64_t seed) {
  std::vector<unsigned char> bytes(n);
  for (auto& b : bytes)
    b = static_cast<unsigned char>((seed = seed * 6364136223846793005ull + 1) >> 56);
  return bytes;
}

}  // namespace

TEST_CASE("parallel_memcpy copies every byte, whatever the size and alignment") {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(4095), std::size_t(1) << 18,
                        (std::size_t(1) << 18) + 1, std::size_t(3000017), std::size_t(9) << 20}) {
    CAPTURE(n);
    const auto from = pattern(n + 7, n);
    std::vector<unsigned char> to(n + 7, 0);
    parallel_memcpy(to.data() + 3, from.data() + 5, n);  // unaligned on both sides
    CHECK(std::equal(to.begin() + 3, to.begin() + 3 + n, from.begin() + 5));
    CHECK(to[0] == 0);
    CHECK(to[n + 3] == 0);  // nothing past the end
  }
}

TEST_CASE("parallel_memcpy from several threads at once") {
  constexpr std::size_t n = std::size_t(5) << 20;
  constexpr int callers = 4;
  std::vector<std::vector<unsigned char>> from, to;
  for (int c = 0; c < callers; ++c) {
    from.push_back(pattern(n, 100 + c));
    to.emplace_back(n, 0);
  }
  std::vector<std::thread> threads;
  for (int c = 0; c < callers; ++c)
    threads.emplace_back([&, c] {
      for (int repeat = 0; repeat < 8; ++repeat) parallel_memcpy(to[c].data(), from[c].data(), n);
    });
  for (auto& t : threads) t.join();
  for (int c = 0; c < callers; ++c) CHECK(to[c] == from[c]);
}
