// scan.cl: the device-wide scan primitive (treefix::scan): out = inclusive or exclusive prefix of
// in under OP (common.clh). The passes are scan_pass.clh; this file only says where values come
// from and go to. Traffic: 2 reads + 1 write of n values. in and out may be the same buffer.
#define SCAN_PARAMS , global const value_t* in, global value_t* out, const int inclusive
#define SCAN_LOAD(p, state) in[p]
#define SCAN_STORE(p, inc, exc, state) out[p] = inclusive ? (inc) : (exc)
#include "primitives/scan_pass.clh"
