"""Execution: jobs say *what* a query computes, executors say *where* it runs, one merge.

- :mod:`.jobs`: one :class:`~.jobs.base.Job` per query kind (:mod:`.jobs.static`,
  :mod:`.jobs.temporal`, :mod:`.jobs.census`): the graph, the plan, the mode, the result
  width, its picklable tasks (root ranges, time partitions), one task's partial result on an
  engine module, the one-call path, and the merge mode of its results.
- :mod:`.executors`: where a job runs, knowing nothing of query kinds: :mod:`.executors.local`
  (this process), :mod:`.executors.devices` (several GPUs of this host, a thread per device),
  :mod:`.executors.dask` (a Dask cluster).
- :mod:`.merge`: the one exact, incremental merge every executor uses (counts and censuses
  summed and refused past 64 bits, ``exists`` stopping at the first hit, matches in task
  order up to ``limit``).
- :mod:`.runner`: picks the executor of a call (``client`` / ``engine="dask"``, ``devices=``,
  else this process) and resolves the engine once.
- :mod:`.static`, :mod:`.temporal`: the entry points the interfaces call (``run_static``,
  ``run_temporal``, ``run_census``, block iterators, Dask frames...), each building a job and
  running it. :mod:`.tasks` splits root-entry ranges.

A new executor (Ray, say) is one module in :mod:`.executors` with a ``run_job(job, ...)`` that
runs ``job.tasks(n, sliced=True)`` with ``job.run_task`` on each task's input
(``job.input_key`` / :func:`~.jobs.base.cut_input`) and feeds a
:class:`~.merge.Merge`, plus a branch in :func:`.runner.dispatch`. A new query kind is one
:class:`~.jobs.base.Job` subclass in :mod:`.jobs` and an entry point that builds it and calls
:func:`.runner.run_job`.
"""
