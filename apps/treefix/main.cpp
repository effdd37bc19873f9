// `treefix`: command-line front end of libtreefix-cl. Subcommands register themselves (command.hpp).
#include <algorithm>
#include <iostream>

#include "command.hpp"
#include "treefix/core/error.hpp"

namespace treefix::cli {

std::vector<std::pair<std::string, CommandSetup>>& CommandRegistry::all() {
  static std::vector<std::pair<std::string, CommandSetup>> commands;
  return commands;
}

void add_device_option(CLI::App* command, std::string& spec) {
  command->add_option("--device", spec,
                      "OpenCL device: gpu, cpu, P:D, or words matched against platform/device "
                      "names (default: $TREEFIX_DEVICE, else the first GPU, else any)");
}

}  // namespace treefix::cli

int main(int argc, char** argv) {
  CLI::App app{"treefix: tree computations on OpenCL devices (libtreefix-cl)"};
  app.require_subcommand(1);
  auto commands = treefix::cli::CommandRegistry::all();
  std::sort(commands.begin(), commands.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [name, setup] : commands) setup(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const treefix::InputError& e) {
    std::cerr << "treefix: error: " << e.what() << "\n";
    return 2;
  } catch (const treefix::Error& e) {
    std::cerr << "treefix: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "treefix: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
