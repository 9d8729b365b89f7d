"""A clock that lies, for the kernels that nbval starts (``make nbval-portable``).

With ``SVMLIB_LYING_CLOCK`` set in the environment, every Python process that
is a Jupyter kernel (``ipykernel_launcher``) gets clocks that run ahead by
random amounts: each reading of ``time.perf_counter``, ``time.process_time``,
``time.time``, ``time.thread_time`` (and their ``_ns`` forms) adds a random
extra delay, drawn afresh each time, to the real reading.  Time still never
goes backwards, so loops that wait for a deadline end (sooner), but a
measured duration is now mostly noise, and any compared output that depends
on one changes from run to run and fails nbval.  ``time.monotonic`` is left
alone: the kernel's event loop schedules its own work by it; so is matplotlib,
which times its legend placement to warn when it takes over a second.

The value of ``SVMLIB_LYING_CLOCK`` is the mean extra delay per reading, in
seconds (``1`` if it is not a number); ``SVMLIB_LYING_CLOCK_SEED`` fixes the
random draws, to repeat a run.  Put this folder on ``PYTHONPATH`` to use it:
Python imports ``sitecustomize`` at start-up.  Other processes (pytest, the
notebook's own subprocesses) are left alone, unless
``SVMLIB_LYING_CLOCK_EVERYWHERE`` is set too (for the test of this file).
"""

import os
import sys


# Libraries that time themselves to decide what to print, on scales no real
# machine reaches in the book (matplotlib warns when placing a legend takes
# over a second): they see the clock run ahead by what it has already lied,
# but add no delay of their own.
HONEST_TO = ("matplotlib.",)


def _lie():
    import random
    import time

    try:
        mean = float(os.environ["SVMLIB_LYING_CLOCK"])
    except ValueError:
        mean = 1.0
    seed = os.environ.get("SVMLIB_LYING_CLOCK_SEED")
    draw = random.Random(int(seed) if seed else None)

    def lying(real, scale):
        ahead = [0.0]

        def clock():
            value = real()
            caller = sys._getframe(1).f_globals.get("__name__", "")
            if caller.startswith(HONEST_TO):
                return value + type(value)(ahead[0] * scale)
            ahead[0] += draw.expovariate(1.0 / mean)
            return value + type(value)(ahead[0] * scale)

        clock.__name__ = real.__name__
        clock.__doc__ = f"{real.__name__}, plus random extra delays (tests/lying_clock)"
        clock.__wrapped__ = real
        return clock

    for name in ("perf_counter", "process_time", "time", "thread_time"):
        setattr(time, name, lying(getattr(time, name), 1.0))
        setattr(time, f"{name}_ns", lying(getattr(time, f"{name}_ns"), 1e9))
    time.LYING_CLOCK = mean


def _is_kernel():
    argv = getattr(sys, "orig_argv", None) or sys.argv
    return any("ipykernel_launcher" in arg or "ipykernel" == arg for arg in argv)


if os.environ.get("SVMLIB_LYING_CLOCK") and (
        _is_kernel() or os.environ.get("SVMLIB_LYING_CLOCK_EVERYWHERE")):
    _lie()
