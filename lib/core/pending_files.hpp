#pragma once
// Temporary output files that are not yet renamed into place, and the signal handler that removes
// them when SIGINT, SIGTERM, SIGHUP or SIGPIPE ends the process (output_file.cpp stages every
// output file this way). The handler only unlinks and re-raises: after it, the signal's default
// action ends the process with the conventional status (128 + the signal's number in a shell).
#include <cstddef>
#include <string>

namespace treefix::detail {

// Registers `path` for removal by the signal handler and returns a handle for
// forget_pending_file. The first call installs the handler for each of those signals whose
// action is still the default (a program's own handler, or an ignored signal, is left alone).
std::size_t remember_pending_file(const std::string& path);

// The file of `handle` is no longer pending (renamed into place or removed).
void forget_pending_file(std::size_t handle);

}  // namespace treefix::detail
