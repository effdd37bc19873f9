// The main loop both programs share (subcommands.hpp).
#include "subcommands.hpp"

#include <algorithm>
#include <cstring>
#include <iostream>
#include <new>
#include <stdexcept>
#include <system_error>

#include "progress.hpp"
#include "treefix/core/environment.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix_version.hpp"

namespace treefix::cli {
namespace {

// "rootfix" once a subcommand was chosen, else the program's name.
std::string command_name(const CLI::App& app, const char* program) {
  for (const CLI::App* sub : app.get_subcommands()) return sub->get_name();
  return program;
}

// One line on standard error; no C++ exception's internal text reaches the user.
int report(const char* program, const std::string& message, int code) {
  std::cerr << program << ": error: " << message << "\n";
  return code;
}

// What a program prints must have reached standard output (`treefix devices > /dev/full`).
int checked_exit(const char* program, int code) {
  try {
    check_standard_output();
  } catch (const Error& e) {
    return report(program, e.what(), code == 0 ? 1 : code);
  }
  return code;
}

}  // namespace

int run_subcommands(const std::string& description, const char* program,
                    std::vector<std::pair<std::string, SubcommandSetup>> setups, int argc,
                    char** argv) {
  CLI::App app{description};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(program) + " " + TREEFIX_VERSION +
                                        " (libtreefix-cl " + TREEFIX_VERSION + ", commit " +
                                        TREEFIX_GIT_COMMIT + ")");
  std::sort(setups.begin(), setups.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [name, setup] : setups) setup(app);
  // Before the subcommand (`treefix --threads 4 knn ...`): every host loop of the run takes it.
  app.add_option_function<unsigned>(
         "--threads", [](unsigned threads) { set_host_threads(threads); },
         "host threads of every host loop (reading, preparing, formatting, CPU runs); default "
         "$TREEFIX_THREADS, else $OMP_NUM_THREADS, else all cores")
      ->check(CLI::Range(1u, kMaxHostThreads))
      ->trigger_on_parse();
  // A bad command line reads like any other error: "treefix: error: --top: expected ...".
  app.failure_message([program](const CLI::App*, const CLI::Error& e) {
    return std::string(program) + ": error: " + e.what() + "\n" +
           "Run with --help for more information.\n";
  });
  const bool help = std::any_of(argv + 1, argv + argc, [](const char* arg) {
    return std::strcmp(arg, "--help") == 0 || std::strcmp(arg, "-h") == 0;
  });
  try {
    if (!help) Environment::read();  // a malformed TREEFIX_* variable stops us before any work
    const ReadProgress progress;     // large inputs being read, on a terminal
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);                     // prints help, or the message
    return checked_exit(program, code == 0 ? 0 : 2);  // a bad command line is bad input
  } catch (const InputError& e) {
    return report(program, e.what(), 2);
  } catch (const Error& e) {
    return report(program, e.what(), 1);
  } catch (const std::bad_alloc&) {
    return report(program,
                  "cannot allocate memory for " + command_name(app, program) +
                      ": the host has not enough free memory for this input",
                  1);
  } catch (const std::length_error&) {
    return report(program,
                  "cannot allocate memory for " + command_name(app, program) +
                      ": a size beyond what the host can address",
                  1);
  } catch (const std::system_error& e) {  // threads, files: the system's own words
    return report(program, command_name(app, program) + ": " + e.code().message(), 1);
  } catch (const std::exception& e) {  // its text, unless it names C++ internals
    const std::string what = e.what();
    const bool internal = what.find("::") != std::string::npos ||
                          what.find("basic_") != std::string::npos ||
                          what.find("bad_") != std::string::npos;
    return report(program,
                  command_name(app, program) + ": internal error" +
                      (internal ? std::string(" (please report it)") : ": " + what),
                  1);
  } catch (...) {
    return report(program, command_name(app, program) + ": internal error (please report it)", 1);
  }
  return checked_exit(program, 0);
}

}  // namespace treefix::cli
