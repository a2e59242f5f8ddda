"""An open-loop HTTP load generator for the read mix (asyncio, no Django, no dependency).

Requests start on a fixed schedule (`rate` a second, whatever the answers' latency) and each
latency is counted from its scheduled start, so a slow server cannot slow the generator down
and hide its own queue (no coordinated omission, unlike a closed loop of N users). Each
request is one HTTP/1.1 GET on a new connection (gunicorn's sync workers close after each
answer, as they would behind a buffering proxy). It costs ~0.1 ms of CPU per request in this
process, measured by the caller with `time.process_time`: a few percent of a core at 200/s,
where locust's FastHttpUser cost several times that on the same machine.
"""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Sample:
    name: str
    seconds: float
    status: int
    size: int
    queries: int | None
    cached: bool


@dataclass
class Run:
    samples: list[Sample] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # this process's CPU while the run lasted


async def _get(host: str, port: int, path: str, timeout: float) -> tuple[int, dict, int]:
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    try:
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: application/json\r\n"
            "Connection: close\r\n\r\n".encode()
        )
        raw = await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, len(body)


async def _one(run: Run, host, port, name, path, scheduled, timeout, record: bool) -> None:
    try:
        status, headers, size = await _get(host, port, path, timeout)
    except (TimeoutError, OSError, ValueError, IndexError) as exc:
        if record:
            key = f"{name}: {type(exc).__name__}"
            run.errors[key] = run.errors.get(key, 0) + 1
        return
    if not record:
        return
    if status != 200:
        key = f"{name}: HTTP {status}"
        run.errors[key] = run.errors.get(key, 0) + 1
    queries = headers.get("x-queries")
    run.samples.append(
        Sample(
            name,
            time.perf_counter() - scheduled,
            status,
            size,
            int(queries) if queries is not None else None,
            headers.get("x-cache") == "hit",
        )
    )


async def _drive(
    run: Run,
    host: str,
    port: int,
    requests: Callable[[], tuple[str, str]],
    rate: float,
    seconds: float,
    timeout: float,
    record: bool,
) -> None:
    start = time.perf_counter()
    tasks = set()
    n = 0
    while True:
        scheduled = start + n / rate
        if scheduled - start >= seconds:
            break
        delay = scheduled - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        name, path = requests()
        task = asyncio.create_task(_one(run, host, port, name, path, scheduled, timeout, record))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        n += 1
    if tasks:
        await asyncio.wait(tasks)
    if record:
        run.seconds = time.perf_counter() - start


def drive(
    host: str,
    port: int,
    requests: Callable[[], tuple[str, str]],
    rate: float,
    seconds: float,
    *,
    timeout: float = 30.0,
    record: bool = True,
) -> Run:
    """Send `rate` requests a second for `seconds`, each `requests()` = (name, path)."""
    run = Run()
    cpu = time.process_time()
    asyncio.run(_drive(run, host, port, requests, rate, seconds, timeout, record))
    run.cpu_seconds = time.process_time() - cpu
    return run


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100), nearest rank: a value that was observed."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


def chooser(rng: random.Random, mix: Callable[[random.Random], list[tuple[str, str]]]):
    """Each request drawn with equal weight from one fresh round of the mix (as locust's)."""
    return lambda: rng.choice(mix(rng))
