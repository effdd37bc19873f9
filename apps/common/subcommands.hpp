#pragma once
// What both programs (`treefix`, `treefix-bench`) are: a CLI11 app of subcommands, each in its own
// file, registering a setup function at static-initialisation time; main() adds them, sorted by
// name, parses, and turns errors into exit codes (2: bad input or command line, 1: anything else).
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace treefix::cli {

using SubcommandSetup = std::function<void(CLI::App& app)>;

// One list per program (Tag: the program's own tag type).
template <class Tag>
struct Subcommands {
  static std::vector<std::pair<std::string, SubcommandSetup>>& all() {
    static std::vector<std::pair<std::string, SubcommandSetup>> list;
    return list;
  }
  struct Registration {
    Registration(const char* name, SubcommandSetup setup) {
      all().emplace_back(name, std::move(setup));
    }
  };
};

// Builds the app from `setups`, runs it, and returns the exit code. `program` prefixes messages.
int run_subcommands(const std::string& description, const char* program,
                    std::vector<std::pair<std::string, SubcommandSetup>> setups, int argc,
                    char** argv);

}  // namespace treefix::cli

#define TREEFIX_SUBCOMMAND_CONCAT2(a, b) a##b
#define TREEFIX_SUBCOMMAND_CONCAT(a, b) TREEFIX_SUBCOMMAND_CONCAT2(a, b)
// Registers `setup` for subcommand `name` of the program whose tag is `Tag` (a name unique in
// the translation unit, which may hold several files: the unity build, CMakeLists.txt).
#define TREEFIX_REGISTER_SUBCOMMAND(Tag, name, setup)                                    \
  static const ::treefix::cli::Subcommands<Tag>::Registration TREEFIX_SUBCOMMAND_CONCAT( \
      treefix_subcommand_registration_, __COUNTER__)(name, setup)
