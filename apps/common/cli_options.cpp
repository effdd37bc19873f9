// Options shared by the command-line programs.
#include "cli_options.hpp"

namespace treefix::cli {

CLI::Option* add_device_option(CLI::App* command, std::string& spec) {
  return command->add_option(
      "--device", spec,
      "OpenCL device: gpu, cpu, P:D, or words matched against platform/"
      "device names (default: $TREEFIX_DEVICE, else the first GPU, else any)");
}

CLI::Option* add_output_option(CLI::App* command, std::string& path, const std::string& what) {
  return command->add_option("--output,-o", path, what + " (default: standard output)");
}

CLI::Option* add_stats_option(CLI::App* command, bool& stats) {
  return command->add_flag("--stats", stats,
                           "print the wall time of each phase (read, validate, device setup, "
                           "upload, prepare, compute, download, write) to standard error");
}

}  // namespace treefix::cli
