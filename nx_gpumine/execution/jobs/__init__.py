"""Jobs: *what* a query computes, and how its partial results merge.

A job (:class:`~nx_gpumine.execution.jobs.base.Job`) holds the graph, the plan, the mode and
the result width; it splits itself into picklable tasks (root ranges or time partitions), runs
one task on an engine module, answers in one engine call, and names the
:class:`~nx_gpumine.execution.merge.Merge` its results go through. Executors
(:mod:`nx_gpumine.execution.executors`) run any job; one file per query kind:
:mod:`.static` (subgraph count / find / exists), :mod:`.temporal` (motif count / find /
exists), :mod:`.census` (the 36 three-edge motif counts).
"""
