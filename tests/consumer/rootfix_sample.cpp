// Root-to-vertex sums of a small tree on the default OpenCL device, checked against the answer.
#include <cstdint>
#include <cstdio>
#include <vector>

#include <treefix/treefix.hpp>

int main() {
  treefix::Runtime runtime;
  // 0 is the root; 1 and 2 hang under it, 3 under 2.
  const treefix::ParentArray parent{-1, 0, 0, 2};
  const std::vector<std::int64_t> weights{1, 10, 100, 1000}, expected{1, 11, 101, 1101};
  const std::vector<std::int64_t> sums = treefix::rootfix(runtime, parent, weights);
  if (sums != expected) {
    std::fprintf(stderr, "rootfix_sample: wrong sums\n");
    return 1;
  }
  std::printf("rootfix_sample: %lld %lld %lld %lld\n", static_cast<long long>(sums[0]),
              static_cast<long long>(sums[1]), static_cast<long long>(sums[2]),
              static_cast<long long>(sums[3]));
  return 0;
}
