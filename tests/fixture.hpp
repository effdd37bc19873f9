#pragma once
// Shared test fixture: one Runtime (one context, one program cache) for the whole test run, on
// $TREEFIX_DEVICE or the default device; random helpers with fixed seeds.
#include <cstdint>
#include <random>
#include <vector>

#include "treefix/core/runtime.hpp"

namespace treefix::test {

// The process's shared Runtime, with `automatic` on the device's algorithms on every device
// (tuning row automatic_on_host), so that the tests calling it exercise them on PoCL too; the
// tests of the host choice set the row themselves.
inline Runtime& runtime() {
  static Runtime& made = []() -> Runtime& {
    Runtime& shared = shared_runtime();
    shared.tuning().set("automatic_on_host", 0);
    return shared;
  }();
  return made;
}

// Changes the test runtime's Tuning for a scope, then restores it (tests exercise every
// strategy on every device).
class ScopedTuning {
 public:
  ScopedTuning() : saved_(runtime().tuning()) {}
  ~ScopedTuning() { runtime().tuning() = saved_; }
  Tuning* operator->() { return &runtime().tuning(); }

 private:
  Tuning saved_;
};

// Sets the scan strategy of the test runtime for a scope.
class ScanStrategy {
 public:
  explicit ScanStrategy(bool single_pass) { tuning_->set("single_pass_scan", single_pass); }

 private:
  ScopedTuning tuning_;
};

// Sizes that exercise edges: empty, one, tiny, primes, non-multiples of work-group sizes.
inline const std::vector<std::size_t>& awkward_sizes() {
  static const std::vector<std::size_t> sizes = {0, 1, 2, 3, 7, 31, 97, 255, 256, 257, 1000, 4099,
                                                 65537, 100003};
  return sizes;
}

template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed, T low, T high) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  if constexpr (std::is_integral_v<T>) {
    std::uniform_int_distribution<T> d(low, high);
    for (auto& x : v) x = d(rng);
  } else {
    std::uniform_real_distribution<T> d(low, high);
    for (auto& x : v) x = d(rng);
  }
  return v;
}

}  // namespace treefix::test
