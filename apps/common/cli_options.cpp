// Options shared by the command-line programs.
#include "cli_options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

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

CLI::Validator integer_in(std::uint64_t low, std::uint64_t high) {
  const std::string expected =
      high == UINT64_MAX ? "an integer >= " + std::to_string(low)
                         : "an integer from " + std::to_string(low) + " to " + std::to_string(high);
  return CLI::Validator(
      [low, high, expected](std::string& text) -> std::string {
        const std::string refusal = "expected " + expected + ", found '" + text + "'";
        if (text.empty() || text.size() > 20) return refusal;
        std::uint64_t value = 0;
        for (char c : text) {
          const auto digit = static_cast<std::uint64_t>(c - '0');
          if (c < '0' || c > '9' || value > (UINT64_MAX - digit) / 10) return refusal;
          value = value * 10 + digit;
        }
        if (value < low || value > high) return refusal;
        text = std::to_string(value);  // "010" is ten, not CLI11's octal eight
        return {};
      },
      expected);
}

CLI::Validator finite_at_least(double low, bool strictly) {
  std::ostringstream bound;
  bound << (strictly ? "> " : ">= ") << low;
  const std::string expected = "a finite number " + bound.str();
  return CLI::Validator(
      [low, strictly, expected](std::string& text) -> std::string {
        char* end = nullptr;
        errno = 0;
        const double value = std::strtod(text.c_str(), &end);
        const bool parsed = !text.empty() && end == text.c_str() + text.size() && errno == 0;
        if (!parsed || !std::isfinite(value) || value < low || (strictly && value == low))
          return "expected " + expected + ", found '" + text + "'";
        return {};
      },
      expected);
}

}  // namespace treefix::cli
