import sys, time, types, importlib, contextlib
sys.path.insert(0, "/work/main/benchmarks")
import numpy as np
import nx_gpumine as ng
from nx_gpumine.inputs.static_graph import from_arrays
from powerlaw_graph import generate
from bench_common import t_dfs_pattern
a, b = generate(200000, 1000000, 2.3, 2000, 1)
S = from_arrays(a, b, num_nodes=200000)
STUB = types.ModuleType("stub"); STUB.count = lambda graph, plan, lo=0, hi=None, **kw: 7
for name in ("execution.static", "execution.jobs.static"):
    with contextlib.suppress(ImportError): importlib.import_module(f"nx_gpumine.{name}")
for name, mod in list(sys.modules.items()):
    if name.startswith("nx_gpumine") and getattr(mod, "select_engine", None) is not None:
        mod.select_engine = lambda engine, kind, plan=None: STUB
for name, mod in list(sys.modules.items()):
    if name.startswith("nx_gpumine") and getattr(mod, "resolve_engine_name", None) is not None:
        mod.resolve_engine_name = lambda engine: "cuda"
def med(call, n=300):
    t=[]
    for _ in range(n):
        t0=time.perf_counter_ns(); call(); t.append(time.perf_counter_ns()-t0)
    return np.median(t)/1e3
out=[]
for p in ("triangle", "4-cycle", "P1", "P2", "P7"):
    pat = t_dfs_pattern(p) if p.startswith("P") else p
    call = lambda: ng.count_subgraphs(S, pat, engine="cuda")
    try:
        for _ in range(50): call()
        out.append(f"{p}: {med(call):.1f}/{med(call):.1f}")
    except Exception as e:
        out.append(f"{p}: {type(e).__name__} {e}"[:120])
print(sys.argv[1], " | ".join(out), "us")
if len(sys.argv) > 2:
    import cProfile, pstats
    pat = t_dfs_pattern(sys.argv[2]) if sys.argv[2].startswith("P") else sys.argv[2]
    pr = cProfile.Profile(); pr.enable()
    for _ in range(500): ng.count_subgraphs(S, pat, engine="cuda")
    pr.disable(); pstats.Stats(pr).sort_stats("cumulative").print_stats(25)
