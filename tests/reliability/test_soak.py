"""A bounded soak through the real server: mixed reads and writes on several connections.

It runs ``STORYCORE_SOAK_SECONDS`` (10 by default in the suite, some thousands of requests;
docs/reliability.md reports a 60-second run) and requires zero errors and a flat server memory;
it prints p50/p99 latency.
"""

from __future__ import annotations

import os
import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from storycore import Service
from storycore.adapters import open_store
from tests._serve import serving
from tests.reliability import _workers

SECONDS = float(os.environ.get("STORYCORE_SOAK_SECONDS", "10"))
CONNECTIONS = 4


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _server_pid(port: int) -> int:
    """The pid of the process listening on ``port`` (Linux /proc)."""
    inode = None
    hex_port = f"{port:04X}"
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1].endswith(f":{hex_port}") and fields[3] == "0A":
            inode = fields[9]
    assert inode is not None
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if any(os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]"
                   for fd in os.listdir(f"/proc/{pid}/fd")):  # fmt: skip
                return int(pid)
        except OSError:
            continue
    raise AssertionError("no listening process")


def _story(title: str) -> dict[str, Any]:
    text = {"type": "text", "data": {"text": "<p>walk</p>"}}
    return {"title": title, "elements": ["https://e.example/walk", text]}


def _worker(
    base: str, credentials: dict[str, str], seed: int, until: float, out: dict[str, Any]
) -> None:
    rng = random.Random(seed)
    latencies: list[float] = []
    errors: list[str] = []
    slugs: list[str] = []
    with httpx.Client(base_url=base, timeout=30) as client:
        while time.monotonic() < until:
            roll = rng.random()
            start = time.perf_counter()
            if roll < 0.45:
                response = client.get(
                    "/v1/stories/browse/latest", params={"page": rng.randint(1, 3)}
                )
            elif roll < 0.65 and slugs:
                response = client.get(f"/v1/stories/alice/{rng.choice(slugs)}")
            elif roll < 0.8:
                response = client.get(
                    "/v1/stories/search", params={"q": rng.choice(["soak", "story", "walk"])}
                )
            elif roll < 0.92 or not slugs:
                response = client.post(
                    "/v1/stories/alice/create",
                    json={**credentials, "story": _story(f"Soak story {seed} {len(slugs)}"),
                          "publish": True},
                )  # fmt: skip
                if response.status_code == 200:
                    slugs.append(response.json()["content"]["slug"])
            else:
                response = client.post(
                    f"/v1/stories/alice/{rng.choice(slugs)}/save",
                    json={**credentials, "story": {"description": f"edit {rng.random()}"}},
                )
            latencies.append(time.perf_counter() - start)
            if response.status_code != 200:
                errors.append(f"{response.status_code} {response.text[:200]}")
    out[f"latencies-{seed}"] = latencies
    out[f"errors-{seed}"] = errors


def test_a_mixed_soak_has_no_errors_and_flat_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'soak.db'}"
    with Service(open_store(db), _workers.SETTINGS) as service:
        service.accounts.create_user("alice", "a-password")
        key = service.accounts.create_app("soak").api_key
    with serving(db, tmp_path) as base:
        token = httpx.post(
            f"{base}/v1/auth", data={"api_key": key, "username": "alice", "password": "a-password"}
        ).json()["content"]["_token"]
        credentials = {"api_key": key, "username": "alice", "_token": token}
        pid = _server_pid(int(base.rsplit(":", 1)[1]))
        out: dict[str, Any] = {}
        warm_until = time.monotonic() + SECONDS * 0.25
        until = time.monotonic() + SECONDS
        threads = [
            threading.Thread(target=_worker, args=(base, credentials, n, until, out))
            for n in range(CONNECTIONS)
        ]
        for thread in threads:
            thread.start()
        time.sleep(max(0.0, warm_until - time.monotonic()))
        warm_rss = _rss_kib(pid)
        for thread in threads:
            thread.join(timeout=SECONDS + 60)
        end_rss = _rss_kib(pid)
    latencies = sorted(
        x for key, values in out.items() if key.startswith("latencies") for x in values
    )
    errors = [e for key, values in out.items() if key.startswith("errors") for e in values]
    p50 = latencies[len(latencies) // 2] * 1000
    p99 = latencies[int(len(latencies) * 0.99)] * 1000
    with capsys.disabled():
        print(
            f"\nsoak: {SECONDS:.0f} s, {CONNECTIONS} connections, {len(latencies)} requests, "
            f"{len(errors)} errors, p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
            f"server RSS {warm_rss // 1024} MiB after warm-up, {end_rss // 1024} MiB at the end"
        )
    assert errors == []
    assert len(latencies) > 100
    assert end_rss < warm_rss * 1.25 + 16 * 1024
