#pragma once
// How a `treefix` process ends. Tearing down an OpenCL context is not free: on NVIDIA's driver,
// releasing the buffers, the page-locked staging memory and the context takes about 140 ms on
// the H100 host, and the driver's exit handlers more (bench/results/h100-2026-11-25-exit). All of it is
// memory the operating system reclaims anyway when the process ends. So:
// - a command that is done with the device while it still has output to write tears its Runtime
//   down beside the writing (tear_down_beside: rootfix and leaffix, 60 ms off a 2^24 command);
// - the other commands keep their Runtime until the end (kept_runtime);
// - main() ends with end_process: it waits for those teardowns, flushes what was printed and
//   calls _Exit, which skips destructors and exit handlers (20-30 ms).
//
// Safe because nothing is left to do by then: OutputFiles commits (fsync, rename) before the
// command returns, and a failed command has removed its temporary files while unwinding.
// Builds with AddressSanitizer tear down normally, so that LeakSanitizer still checks them.
#include <memory>
#include <string>

#include "treefix/core/runtime.hpp"

namespace treefix::cli {

// A Runtime on `device_spec` that lives until the process ends.
Runtime& kept_runtime(const std::string& device_spec);
// From now on kept_runtime gives the Runtime it made before for the same spec, so that many
// commands in one process (`treefix batch`) share one context and its built programs.
void share_runtimes();
bool runtimes_shared();
// Tears `runtime` down now, on another thread, while the command goes on (writing its output):
// most of an NVIDIA context's teardown is the driver's, done when the context is released, so it
// overlaps the write instead of following it at exit. end_process waits for it to finish.
void tear_down_beside(std::unique_ptr<Runtime> runtime);

// Ends the process with exit code `code` (see above). Does not return.
[[noreturn]] void end_process(int code);

}  // namespace treefix::cli
