#pragma once
// Interruption: a long computation stops between its device steps when the program that embeds
// the library asks it to (the Python module, on Ctrl-C), instead of running to its end.
//
// The library passes interruption points between device steps: every kernel launch (Kernels),
// and every download, whose wait for the device's earlier work is cut into short waits with a
// point between them. An interruption point calls the installed check, at most every
// kInterruptCheckInterval per thread; the check throws to stop (the Python module throws the
// KeyboardInterrupt that Python's signal handler set). The exception unwinds through the
// library like any other: a Runtime stays usable (work already queued still runs, and the next
// call's work queues behind it), and an object whose construction is interrupted is never made.
// A command-line program needs none of this (SIGINT ends the process; core/pending_files.hpp
// removes its half-written files).
#include <chrono>

namespace treefix {

class Runtime;

// What an interruption point calls; throws to interrupt. nullptr: none (the default).
using InterruptCheck = void (*)();
// Installs `check` for the whole process (nullptr removes it).
void set_interrupt_check(InterruptCheck check);

// The least time between two calls of the check on one thread: often enough to stop within a
// fraction of a second, rarely enough that a loop of short launches does not feel it.
constexpr std::chrono::milliseconds kInterruptCheckInterval{20};

// Calls the installed check when kInterruptCheckInterval has passed since this thread last did.
void interruption_point();

// Waits until the runtime's queue has done everything enqueued so far, passing interruption
// points while it waits; without an installed check it returns at once. Called before every
// download (a download into host memory is never left in flight by an interruption), and once a
// step by loops whose steps queue without reading anything back (n-body steps), so that an
// interruption leaves at most one step queued behind it.
void wait_interruptibly(Runtime& runtime);

}  // namespace treefix
