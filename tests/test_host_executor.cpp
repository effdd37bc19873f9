// The host executor (treefix/core/parallel.hpp): every index once whatever the counts, exceptions
// reach the caller and leave the pool usable, nested and concurrent calls finish, the thread count
// comes from --threads / TREEFIX_THREADS / OMP_NUM_THREADS, and a float scan's bits do not depend
// on it.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/treefix/cpu_parallel.hpp"
#include "treefix/treefix/generate.hpp"

using namespace treefix;

namespace {

// Sets (or unsets, for nullptr) an environment variable for one scope.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedVariable() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// How many times body ran each index of [0, count).
std::vector<int> runs_of(std::size_t count, unsigned threads) {
  std::vector<std::atomic<int>> runs(count);
  parallel_for(count, threads, [&](std::size_t i) { runs[i].fetch_add(1); });
  return std::vector<int>(runs.begin(), runs.end());
}

}  // namespace

TEST_CASE("host executor: every index once, for 0, 1, fewer than the threads and many items") {
  for (unsigned threads : {0u, 1u, 2u, 5u, 16u}) {
    CAPTURE(threads);
    for (std::size_t count : {0, 1, 2, 3, 15, 1000, 100003}) {
      CAPTURE(count);
      const std::vector<int> runs = runs_of(count, threads);
      CHECK(std::count(runs.begin(), runs.end(), 1) == static_cast<long>(count));
    }
  }
  bool called = false;
  parallel_for(0, [&](std::size_t) { called = true; });
  parallel_for_ranges(0, 8, 4, [&](std::size_t, std::size_t) { called = true; });
  CHECK_FALSE(called);
}

TEST_CASE("host executor: ranges cover [0, n) in pieces of the grain") {
  for (std::size_t items : {1, 7, 256, 257, 10007}) {
    CAPTURE(items);
    std::vector<std::atomic<int>> runs(items);
    std::atomic<std::size_t> longest{0};
    parallel_for_ranges(items, 64, 3, [&](std::size_t begin, std::size_t end) {
      CHECK(begin % 64 == 0);
      for (std::size_t i = begin; i < end; ++i) runs[i].fetch_add(1);
      std::size_t seen = longest.load();
      while (end - begin > seen && !longest.compare_exchange_weak(seen, end - begin)) {
      }
    });
    CHECK(longest.load() <= 64);
    for (std::size_t i = 0; i < items; ++i) CHECK(runs[i].load() == 1);
  }
}

TEST_CASE("host executor: an exception reaches the caller after every task ran, the pool goes on") {
  for (unsigned threads : {1u, 4u}) {
    CAPTURE(threads);
    std::atomic<int> ran{0};
    CHECK_THROWS_WITH_AS(parallel_for(100, threads,
                                      [&](std::size_t i) {
                                        ran.fetch_add(1);
                                        if (i == 37) throw InputError("piece 37");
                                      }),
                         "piece 37", InputError);
    CHECK(ran.load() == 100);
    CHECK_THROWS_AS(run_on_threads(threads, [](unsigned) { throw std::runtime_error("slot"); }),
                    std::runtime_error);
    const std::vector<int> runs = runs_of(5000, threads);  // still usable
    CHECK(std::count(runs.begin(), runs.end(), 1) == 5000);
  }
}

TEST_CASE("host executor: a loop inside a task runs inline, without deadlock") {
  std::vector<std::atomic<int>> runs(64 * 64);
  std::atomic<int> inline_loops{0};
  parallel_for(64, 8, [&](std::size_t outer) {
    const std::thread::id caller = std::this_thread::get_id();
    bool same_thread = true;
    parallel_for(64, 8, [&](std::size_t inner) {
      runs[outer * 64 + inner].fetch_add(1);
      if (std::this_thread::get_id() != caller) same_thread = false;
    });
    if (same_thread) inline_loops.fetch_add(1);
    run_on_threads(3, [&](unsigned) {});
  });
  for (auto& r : runs) CHECK(r.load() == 1);
  CHECK(inline_loops.load() == 64);
}

TEST_CASE("host executor: slots run once each, a slot may wait for slot 0") {
  for (unsigned threads : {1u, 2u, 7u}) {
    CAPTURE(threads);
    std::atomic<bool> published{false};
    std::vector<int> ran(threads, 0);
    run_on_threads(threads, [&](unsigned slot) {
      if (slot == 0)
        published = true;
      else
        while (!published.load()) std::this_thread::yield();
      ++ran[slot];
    });
    CHECK(std::count(ran.begin(), ran.end(), 1) == static_cast<long>(threads));
  }
}

TEST_CASE("host executor: callers on several threads share the pool") {
  constexpr int callers = 4;
  std::vector<std::vector<int>> results(callers);
  std::vector<std::thread> threads;
  for (int c = 0; c < callers; ++c)
    threads.emplace_back([&, c] {
      for (int repeat = 0; repeat < 20; ++repeat) results[c] = runs_of(20011, 8);
    });
  for (auto& t : threads) t.join();
  for (const auto& runs : results) CHECK(std::count(runs.begin(), runs.end(), 1) == 20011);
}

TEST_CASE("host executor: the thread count from --threads, TREEFIX_THREADS, OMP_NUM_THREADS") {
  {
    const ScopedVariable ours("TREEFIX_THREADS", "3"), omp("OMP_NUM_THREADS", "5");
    CHECK(host_threads() == 3);
    set_host_threads(7);  // the CLI's --threads comes first
    CHECK(host_threads() == 7);
    set_host_threads(0);
    CHECK(host_threads() == 3);
  }
  {
    const ScopedVariable ours("TREEFIX_THREADS", nullptr), omp("OMP_NUM_THREADS", "5,2");
    CHECK(host_threads() == 5);  // OpenMP's nested list: its first level
  }
  {
    const ScopedVariable ours("TREEFIX_THREADS", nullptr), omp("OMP_NUM_THREADS", "many");
    CHECK(host_threads() == std::max(1u, std::thread::hardware_concurrency()));  // ignored
  }
  {
    const ScopedVariable ours("TREEFIX_THREADS", nullptr), omp("OMP_NUM_THREADS", nullptr);
    CHECK(host_threads() == std::max(1u, std::thread::hardware_concurrency()));
  }
  for (const char* bad : {"0", "-2", "two", "4x", "100000"}) {
    CAPTURE(bad);
    const ScopedVariable ours("TREEFIX_THREADS", bad);
    CHECK_THROWS_WITH_AS(host_threads(),
                         (std::string("environment variable TREEFIX_THREADS='") + bad +
                          "': expected a positive integer of at most 4096")
                             .c_str(),
                         InputError);
  }
  CHECK_THROWS_AS(set_host_threads(kMaxHostThreads + 1), InputError);
}

TEST_CASE("host executor: a float treefix on the CPU has the same bits on 1, 3 and 16 threads") {
  const std::size_t n = 300007;
  const ParentArray parent = generate::random_recursive(n, 17);
  const auto w = test::random_values<float>(n, 18, -1.0f, 1.0f);
  const auto euler = cpu_parallel::Method::euler;
  const cpu_parallel::Plan one(parent, 1);
  const auto root1 = cpu_parallel::rootfix(one, w, Op::sum, false, euler);
  const auto leaf1 = cpu_parallel::leaffix(one, w, Op::sum, false, euler);
  for (unsigned threads : {3u, 16u}) {
    CAPTURE(threads);
    const cpu_parallel::Plan plan(parent, threads);
    const auto root = cpu_parallel::rootfix(plan, w, Op::sum, false, euler);
    const auto leaf = cpu_parallel::leaffix(plan, w, Op::sum, false, euler);
    CHECK(std::memcmp(root.data(), root1.data(), n * sizeof(float)) == 0);
    CHECK(std::memcmp(leaf.data(), leaf1.data(), n * sizeof(float)) == 0);
  }
}
