"""The native core releases the GIL: Python threads keep running while it
works, and two calls from threads behind a barrier overlap in time."""

from __future__ import annotations

import threading
import time

import numpy as np

import caudal


def big_rig_and_clip(n=200_000, frames=40):
    rng = np.random.default_rng(0)
    v = rng.uniform(-1, 1, size=(n, 3)).astype(np.float32)
    joints = np.stack([np.zeros(n, dtype=np.int64), np.ones(n, dtype=np.int64)], axis=1)
    w = np.stack([np.full(n, 0.25), np.full(n, 0.75)], axis=1)
    bind = np.stack([np.eye(4), np.eye(4)])
    rig = caudal.Rig(v, [[0, 1, 2]], joints, w, ["a", "b"], [-1, 0], bind_matrices=bind)
    angles = np.linspace(0, 1, frames)
    rot = np.zeros((frames, 2, 4))
    rot[:, 1] = np.stack([np.sin(angles / 2), 0 * angles, 0 * angles, np.cos(angles / 2)], axis=1)
    rot[:, 0, 3] = 1
    clip = caudal.Clip("spin", 30.0, np.zeros((frames, 2, 3)), rot)
    return rig, clip


def spinner_count_during(call) -> tuple[int, float]:
    """How often a Python thread, released behind a barrier, counts while
    `call()` runs, and how long the call took."""
    count = [0]
    stop = threading.Event()
    barrier = threading.Barrier(2)

    def spin():
        barrier.wait()
        while not stop.is_set():
            count[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    barrier.wait()
    before = count[0]
    start = time.perf_counter()
    call()
    elapsed = time.perf_counter() - start
    during = count[0] - before
    stop.set()
    t.join()
    return during, elapsed


def test_python_threads_run_during_native_work():
    rig, clip = big_rig_and_clip()
    during, elapsed = spinner_count_during(lambda: caudal.skin(rig, clip))
    # Holding the GIL for the whole call would let the spinner run only at
    # the call's edges; released, it counts freely for the whole call.
    assert elapsed > 0.02
    assert during > 10_000, (during, elapsed)


def test_two_native_calls_overlap():
    rig, clip = big_rig_and_clip()
    barrier = threading.Barrier(2)
    spans: list[tuple[float, float]] = []

    def work():
        barrier.wait()
        s = time.perf_counter()
        caudal.skin(rig, clip)
        spans.append((s, time.perf_counter()))

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    (s1, e1), (s2, e2) = spans
    assert max(s1, s2) < min(e1, e2), spans


def test_bake_clip_releases_the_gil():
    # The demo's walk played 1,000 times as one long clip through its tail.
    model = caudal.demo_creature()
    rig = caudal.bake(model).rig
    walk = model.clip("Walk", rig=rig)

    def long(a):
        return np.tile(np.asarray(a)[:-1], (1000, 1, 1))

    clip = caudal.Clip(
        "long", walk.rate, long(walk.translations), long(walk.rotations), long(walk.scales)
    )
    during, elapsed = spinner_count_during(lambda: caudal.bake_clip(rig, clip, loop="once"))
    assert elapsed > 0.02
    assert during > 10_000, (during, elapsed)
    print(f"bake_clip {elapsed:.3f} s, spinner {during}")
