// The runtime around the results: the one-line notice of a first compilation, the warm-up runner,
// processes forked after device setup (refused at once, host work going on), device words, and
// result memory that goes back to the operating system.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "fixture.hpp"
#include "scratch_directory.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/core/result_memory.hpp"
#include "treefix/core/warm_up.hpp"
#include "treefix/treefix/reference.hpp"

using namespace treefix;

namespace {
std::vector<std::string> notices;
void collect_notice(const std::string& line) { notices.push_back(line); }

// TREEFIX_CACHE_DIR set for a scope (Runtimes read it when made).
struct CacheDir {
  std::string saved;
  bool had;
  explicit CacheDir(const std::string& dir) : had(std::getenv("TREEFIX_CACHE_DIR") != nullptr) {
    if (had) saved = std::getenv("TREEFIX_CACHE_DIR");
    setenv("TREEFIX_CACHE_DIR", dir.c_str(), 1);
  }
  ~CacheDir() {
    if (had)
      setenv("TREEFIX_CACHE_DIR", saved.c_str(), 1);
    else
      unsetenv("TREEFIX_CACHE_DIR");
  }
};

const char* const kTinyKernel = "kernel void tiny(global int* x) { x[get_global_id(0)] = 7; }";

std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}
}  // namespace

TEST_CASE("a runtime's first compilation says so once, naming the device and the cache") {
  test::ScratchDirectory scratch("treefix-notice-test");
  const CacheDir cache(scratch.path.string());
  notices.clear();
  set_compile_notice(&collect_notice);
  {
    Runtime rt;
    rt.program_from_source("notice test", kTinyKernel);
    rt.program_from_source("notice test 2", std::string(kTinyKernel) + "\n// another");
    REQUIRE(notices.size() == 1);
    CHECK(notices[0].find("compiling kernels for " + rt.description().device_name) !=
          std::string::npos);
    CHECK(notices[0].find(scratch.path.string()) != std::string::npos);
  }
  Runtime again;  // loads both from the disk cache: nothing to say
  again.program_from_source("notice test", kTinyKernel);
  CHECK(notices.size() == 1);
  set_compile_notice(nullptr);
}

TEST_CASE("warm-up: every task once over several runtimes, the first alone, failures thrown") {
  test::ScratchDirectory scratch("treefix-warm-up-test");
  const CacheDir cache(scratch.path.string());
  std::vector<std::string> done;
  std::vector<WarmUpTask> tasks;
  for (int i = 0; i < 4; ++i)
    tasks.push_back({"task " + std::to_string(i), [i](Runtime& runtime) {
                       runtime.program_from_source("warm " + std::to_string(i),
                                                   std::string(kTinyKernel) + "\n//" +
                                                       std::to_string(i));
                     }});
  const WarmUpSummary summary = warm_up_in_parallel(
      "", tasks, 2, [&](const std::string& name, double) { done.push_back(name); });
  CHECK(summary.tasks == 4);
  CHECK(summary.programs == 4);
  REQUIRE(done.size() == 4);
  CHECK(done[0] == "task 0");
  tasks.push_back({"broken", [](Runtime&) { throw InputError("broken task"); }});
  CHECK_THROWS_WITH_AS(warm_up_in_parallel("", tasks, 2), "broken task", InputError);
}

TEST_CASE("a process forked after device setup is refused at once; host work goes on") {
  auto& rt = test::runtime();
  rt.program_from_source("fork test", kTinyKernel);  // this process has used the device
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::alarm(20);  // a hang ends the child, and the check below sees it
    int failures = 0;
    try {
      rt.queue();
      ++failures;
    } catch (const Error& e) {
      failures += std::string(e.what()).find("fork") == std::string::npos;
    }
    try {
      Runtime fresh;
      ++failures;
    } catch (const Error&) {
    }
    // host work: the pool of host threads is the child's own
    std::vector<int> squares(10000);
    parallel_for(squares.size(), [&](std::size_t i) { squares[i] = static_cast<int>(i * i); });
    failures += squares[9999] != 9999 * 9999;
    const auto sums = reference::rootfix<std::int64_t>({-1, 0, 1}, {1, 2, 3}, Op::sum);
    failures += sums != std::vector<std::int64_t>{1, 3, 6};
    ::_exit(failures == 0 ? 0 : 1);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK_FALSE(forked_after_device_setup());
  rt.program_from_source("fork test", kTinyKernel);  // the parent goes on
}

TEST_CASE("device words: the driver's own name selects its devices") {
  for (const DeviceDescription& d : list_devices()) {
    const bool pocl = d.device_version.find("PoCL") != std::string::npos ||
                      d.platform_name.find("Portable Computing Language") != std::string::npos;
    if (!pocl) continue;
    Runtime chosen("pocl");
    CHECK(chosen.description().platform_name == d.platform_name);
    break;
  }
  CHECK_THROWS_WITH_AS(Runtime("no-such-device-word"),
                       doctest::Contains("no OpenCL device matches"), Error);
}

TEST_CASE("result memory: reused by size, and returned to the system whatever the sizes") {
  release_cached_results();
  const std::size_t before = resident_bytes();
  for (int round = 0; round < 3; ++round) {
    std::vector<ResultMemory> live;
    for (std::size_t mib = 4; mib <= 24; mib += 3) {
      ResultMemory block = take_result_memory(mib << 20);
      std::fill_n(static_cast<char*>(block.data), block.bytes, char(1));  // resident
      live.push_back(block);
    }
    for (const ResultMemory& block : live) give_back_result_memory(block.data, block.bytes);
    CHECK(cached_result_bytes() > 0);
    const ResultMemory again = take_result_memory(live[2].bytes);  // a kept block of that size
    CHECK(again.data == live[2].data);
    CHECK_FALSE(again.fresh);
    give_back_result_memory(again.data, again.bytes);
    release_cached_results();
    CHECK(cached_result_bytes() == 0);
    CHECK(resident_bytes() < before + (8u << 20));
  }
  CHECK_THROWS_AS(take_result_memory(std::size_t{1} << 62), CapacityError);
}
