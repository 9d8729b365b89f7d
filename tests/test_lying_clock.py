"""The lying clock that ``make nbval-portable`` gives the notebooks' kernels."""

import json
import os
import pathlib
import subprocess
import sys

FOLDER = pathlib.Path(__file__).resolve().parent / "lying_clock"

PROBE = """
import json, time, timeit
readings = [time.perf_counter() for _ in range(200)]
steps = [b - a for a, b in zip(readings, readings[1:])]
cpu = [time.process_time() for _ in range(50)]
print(json.dumps({"lying": hasattr(time, "LYING_CLOCK"), "steps": steps,
                  "cpu_steps": [b - a for a, b in zip(cpu, cpu[1:])],
                  "timeit_lies": timeit.default_timer is time.perf_counter
                                 and hasattr(time, "LYING_CLOCK"),
                  "ns_step": time.perf_counter_ns() - time.perf_counter_ns()}))
"""


def run_probe(**env):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SVMLIB_LYING")}
    environment.update(PYTHONPATH=str(FOLDER), **env)
    out = subprocess.run([sys.executable, "-c", PROBE], env=environment, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def test_the_clock_runs_ahead_by_random_delays_and_never_back():
    result = run_probe(SVMLIB_LYING_CLOCK="0.5", SVMLIB_LYING_CLOCK_EVERYWHERE="1",
                       SVMLIB_LYING_CLOCK_SEED="3")
    steps = result["steps"]
    assert result["lying"] and result["timeit_lies"]
    assert min(steps) > 0, "the lying clock went backwards or stood still"
    # exponential delays of mean 0.5 s: the mean of 199 draws is near 0.5, and the
    # readings are mostly delay (a real step takes microseconds)
    assert 0.35 < sum(steps) / len(steps) < 0.65
    assert max(steps) / min(steps) > 10, "the delays should vary widely from reading to reading"
    assert min(result["cpu_steps"]) > 0 and result["ns_step"] < 0


def test_other_processes_keep_the_real_clock():
    result = run_probe(SVMLIB_LYING_CLOCK="0.5")        # not a kernel
    assert not result["lying"]
    assert sum(result["steps"]) < 1.0                   # 199 real steps take far less than 1 s
    assert not run_probe()["lying"]                     # and nothing happens without the variable
