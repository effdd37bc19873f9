#pragma once
// How a `treefix` process ends. Tearing down an OpenCL context is not free: on NVIDIA's driver,
// releasing the buffers, the page-locked staging memory and the context, then the driver's own
// exit handlers, takes a good part of the ~150 ms that a device command spent outside its phases
// (bench/README.md, "Pipeline"). Every byte of it is memory the operating system reclaims at once
// when the process ends. So a command keeps its Runtime until the end (kept_runtime), and main()
// ends with end_process: it flushes what was printed and calls _Exit, which skips destructors and
// exit handlers.
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
// Keeps `runtime` until the process ends.
Runtime& keep_until_end(std::unique_ptr<Runtime> runtime);

// Ends the process with exit code `code` (see above). Does not return.
[[noreturn]] void end_process(int code);

}  // namespace treefix::cli
