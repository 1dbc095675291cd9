"""Running a command in a child process that the parent kills at once on SIGINT / SIGTERM.

An engine call holds the interpreter until it returns, so a signal handler in the process doing
the work would only run then; the parent does nothing but wait, so the program exits within a
fraction of a second even while an engine call is running.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

from .common import EXIT_INTERNAL, EXIT_SIGTERM

__all__ = ["run_supervised"]


class _Terminated(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def run_supervised(run: Callable[[], int]) -> int:
    """Run ``run`` in a forked child; on SIGINT / SIGTERM / SIGHUP kill it and return at once.

    An engine call holds the interpreter until it returns, so a signal handler in the process
    doing the work would only run then. The parent does nothing but wait, so it reacts within
    milliseconds. The child ignores SIGINT (the parent owns it) and dies with the parent.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # child
        code = EXIT_INTERNAL
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            _die_with_parent()
            code = run()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else EXIT_INTERNAL
        except BaseException:
            import traceback

            traceback.print_exc()
        finally:
            with contextlib.suppress(Exception):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)

    def stop(signum: int, frame: Any) -> None:
        raise _Terminated(signum)

    old = {}
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            old[sig] = signal.signal(sig, stop)
    try:
        _, status = os.waitpid(pid, 0)
    except (KeyboardInterrupt, _Terminated) as exc:
        signum = exc.signum if isinstance(exc, _Terminated) else signal.SIGINT
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        word = "interrupted" if signum == signal.SIGINT else "terminated"
        print(f"nx-gpumine: {word}", file=sys.stderr, flush=True)
        return 128 + int(signum)
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code


def _die_with_parent() -> None:
    """Linux: ask the kernel to kill this child when its parent dies (no orphaned engine)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
        if os.getppid() == 1:
            os._exit(EXIT_SIGTERM)
    except (OSError, AttributeError):
        pass
