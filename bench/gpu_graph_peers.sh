#!/usr/bin/env bash
# treefix's graph functions against scipy.sparse.csgraph on the GPU, side by side in one process
# (bench/graph_peers.py). From the repository root on that machine:
#   bench/gpu_graph_peers.sh OUTDIR [kronecker|kron27]
#   kronecker (default)  Kronecker-21 and -22 (csr, int32 and int64 indices; their directed
#                        arcs; their upper triangle; weighted), the road network and the directed
#                        web graph of $DATA (default ../shared/data, else shared/data)
#   kron27               Kronecker-27 past 2^31 arcs as a SciPy csr with int64 indptr and indices:
#                        one-shot breadth_first_order and connected_components. The graph comes
#                        from `generate kronecker --distributed` of an MPI build ($TREEFIX names
#                        one, else build-mpi/ is built, as bench/gpu_mpi.sh does), in $SCRATCH
#                        (default /tmp/gpu_graph_peers; ~17 GB); the host needs ~60 GB.
# PYTHON=/path/to/python3 chooses the interpreter (numpy, scipy, pybind11); PEERS_ARGS adds
# graph_peers.py options. Builds the module in build-gpu-python/ (as bench/gpu_python.sh).
# Each part stops within BUDGET_S seconds (default 590: one call of the device machine); the CSV
# keeps the rows written so far. Writes OUTDIR/python-build.log, graph_peers-PART.csv and .log,
# summary.txt.
# Without a GPU (a test of the script): PEERS_ARGS="--kron 8 --repeats 1" bench/gpu_graph_peers.sh /tmp/out
set -uo pipefail
out=${1:?output directory}
part=${2:-kronecker}
mkdir -p "$out"
out=$(cd "$out" && pwd)
python=${PYTHON:-$(command -v python3)}
source "$(dirname "$0")/lib/gpu_env.sh"
source "$(dirname "$0")/lib/commit.sh"  # checkout_commit
summary=$out/summary.txt
note() { echo "$*" | tee -a "$summary"; }
command -v nvidia-smi > /dev/null && note "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
note "$("$python" -c 'import sys, numpy, scipy; print(sys.version.split()[0], "numpy", numpy.__version__, "scipy", scipy.__version__)')"
note "part $part; $(nproc) cores; commit $(checkout_commit)"

source bench/lib/python_module.sh
build_python_module "$out/python-build.log" || { note "module build failed"; exit 1; }
note "module built at ${SECONDS}s"

data=${DATA:-}
if [[ -z $data ]]; then
  for candidate in ../shared/data shared/data; do [[ -d $candidate ]] && data=$candidate && break; done
fi
case $part in
  kronecker)
    # within one 10-minute call, whatever the build took (rows are written as they come)
    timeout $((${BUDGET_S:-590} - SECONDS)) "$python" bench/graph_peers.py --csv "$out/graph_peers-kronecker.csv" \
      --data "${data:-/nonexistent}" ${PEERS_ARGS:-} 2>&1 | tee "$out/graph_peers-kronecker.log"
    ;;
  kron27)
    scratch=${SCRATCH:-/tmp/gpu_graph_peers}
    mkdir -p "$scratch"
    if [[ -n ${TREEFIX:-} ]]; then
      treefix=$TREEFIX
    else
      source "$(dirname "$0")/lib/mpi_env.sh"
      { cmake -S . -B build-mpi -DCMAKE_BUILD_TYPE=Release -DTREEFIX_MPI=ON -DTREEFIX_BUILD_TESTS=OFF &&
        cmake --build build-mpi -j"$(nproc)" --target treefix; } > "$out/mpi-build.log" 2>&1 ||
        { tail -40 "$out/mpi-build.log"; note "MPI build failed"; exit 1; }
      treefix=$PWD/build-mpi/apps/treefix
      note "MPI treefix built at ${SECONDS}s"
    fi
    graph=$scratch/kronecker27.csr
    [[ -s $graph ]] || timeout 300 "$treefix" generate kronecker --scale "${SCALE:-27}" --distributed \
      -o "$graph" > "$out/generate.log" 2>&1 || { tail -5 "$out/generate.log"; note "generate failed"; exit 1; }
    note "graph ready at ${SECONDS}s: $(grep -o '[0-9]* vertices, [0-9]* arcs' "$out/generate.log" 2>/dev/null)"
    timeout $((${BUDGET_S:-590} - SECONDS)) "$python" bench/graph_peers.py --csv "$out/graph_peers-kron27.csv" --kron "" \
      --data /nonexistent --kron27 "$graph" ${PEERS_ARGS:-} 2>&1 | tee "$out/graph_peers-kron27.log"
    [[ -n ${KEEP:-} ]] || rm -f "$graph"
    ;;
  *) note "unknown part $part (kronecker or kron27)"; exit 1 ;;
esac
note "done at ${SECONDS}s"
