#pragma once
// Internal to the library (core's program cache, io's output files): temporary output files
// that are not yet renamed into place, and the signal handler that removes them when SIGINT,
// SIGTERM, SIGHUP or SIGPIPE ends the process (lib/io/output_file.cpp stages every output file
// this way). The handler only unlinks, then hands the signal on to the action that was there
// before it: in the end the default action ends the process with the conventional status (128 +
// the signal's number in a shell).
#include <cstddef>
#include <string>

namespace treefix::detail {

// Registers `path` for removal by the signal handler and returns a handle for
// forget_pending_file. The first call installs the handler for each of those signals that is not
// ignored (an ignored signal stays ignored; a handler already there is called after ours).
std::size_t remember_pending_file(const std::string& path);

// The file of `handle` is no longer pending (renamed into place or removed).
void forget_pending_file(std::size_t handle);

}  // namespace treefix::detail
