#pragma once
// Internal: OpenCL and fork() (treefix/core/runtime.hpp, forked_after_device_setup).
namespace treefix::detail {

// Called before this process first touches OpenCL (device enumeration): remembers that it has,
// so that a child forked afterwards knows its driver is unusable.
void note_device_setup();
// Throws Error at once in a child forked after its parent set up a device: the driver's threads
// stayed in the parent, and the child's first device call would wait for ever. `what`: the
// operation refused.
void refuse_after_fork(const char* what);

}  // namespace treefix::detail
