"""Executors: *where* a job runs. Each takes any :class:`~nx_gpumine.execution.jobs.base.Job`
and knows nothing of query kinds:

- :mod:`.local`: this process, on the current device or the CPU (one engine call, or the
  tasks one after the other under a progress bar);
- :mod:`.devices`: several GPUs of this host, a worker thread per device, a task queue with
  stealing;
- :mod:`.dask`: a Dask cluster, the graph shipped once, lost tasks rerun, queries cancellable.

Every executor feeds the tasks' results to the one exact
:class:`~nx_gpumine.execution.merge.Merge`. :mod:`nx_gpumine.execution.runner` picks the
executor of a call.
"""
