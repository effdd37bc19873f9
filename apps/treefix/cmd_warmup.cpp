// treefix warmup [--device SPEC] [--threads N] [--module M,...]: builds every kernel program the library's paths
// take into the disk cache ahead of use (treefix/core/warm_up.hpp), N at a time.
#include <cstdio>
#include <iostream>
#include <memory>

#include "command.hpp"
#include "treefix/core/environment.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/warm_up.hpp"

namespace treefix::cli {
namespace {

struct WarmupArgs {
  std::string device;
  unsigned threads = 0;
  std::vector<std::string> modules;
};

void run_warmup(const WarmupArgs& args) {
  const std::string cache = Environment::read().cache_dir;
  if (cache.empty())
    throw InputError("warmup: the disk cache is off (TREEFIX_CACHE=off): nothing would be kept");
  set_compile_notice([](const std::string&) {});  // one line per runtime would repeat this one
  const auto tasks = library_warm_up_tasks(args.modules);
  std::cerr << "treefix warmup: " << tasks.size() << " paths into " << cache << "\n";
  const WarmUpSummary summary =
      warm_up_in_parallel(args.device, tasks, args.threads, [](const std::string& name, double s) {
        std::fprintf(stderr, "  %7.2f s  %s\n", s, name.c_str());
      });
  std::fprintf(stderr, "treefix warmup: %zu programs in %.1f s\n", summary.programs,
               summary.seconds);
}

void setup_warmup(CLI::App& app) {
  auto args = std::make_shared<WarmupArgs>();
  auto* command = add_command(app, "warmup",
                              "Compile every kernel program into the disk cache ahead of use "
                              "(TREEFIX_CACHE_DIR), so that no later run waits for a compiler",
                              args, run_warmup);
  add_device_option(command, args->device);
  command->add_option("--threads", args->threads,
                      "programs compiled at once, each by a runtime of its own (default: the "
                      "host threads)")
      ->check(integer_in(1, kMaxHostThreads));
  command->add_option("--module", args->modules, "only these modules' paths (default: all)")
      ->check(CLI::IsMember(warm_up_modules()))
      ->delimiter(',');
}

TREEFIX_COMMAND("warmup", setup_warmup);

}  // namespace
}  // namespace treefix::cli
