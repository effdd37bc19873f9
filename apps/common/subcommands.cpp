// The main loop both programs share (subcommands.hpp).
#include "subcommands.hpp"

#include <algorithm>
#include <iostream>

#include "treefix/core/error.hpp"

namespace treefix::cli {

int run_subcommands(const std::string& description, const char* program,
                    std::vector<std::pair<std::string, SubcommandSetup>> setups, int argc,
                    char** argv) {
  CLI::App app{description};
  app.require_subcommand(1);
  std::sort(setups.begin(), setups.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [name, setup] : setups) setup(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints help, or the message
    return code == 0 ? 0 : 2;      // a bad command line is bad input, as a bad file is
  } catch (const InputError& e) {
    std::cerr << program << ": error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << program << ": error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace treefix::cli
