"""Heavy jobs on a real Dask cluster (a ``dask scheduler`` and two ``dask worker``
processes on 127.0.0.1): the endgame-table build and matches, byte-identical and exactly
counted, a worker killed halfway costing only its task, an interrupted client resuming."""

from __future__ import annotations

import importlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

import shashki  # noqa: E402
from dask_cluster import kill_a_busy_worker, real_cluster  # noqa: E402
from shashki import egtb  # noqa: E402
from shashki.apps.match.players import TimeControl  # noqa: E402
from shashki.apps.match.runner import run_match  # noqa: E402

ROOT = Path(__file__).parents[1]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory):
    with real_cluster(tmp_path_factory.mktemp("dask")) as (address, client):
        yield address, client


@pytest.fixture(scope="module")
def local4(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """Russian's tables of up to four pieces built on one machine."""
    directory = tmp_path_factory.mktemp("local4")
    return directory, egtb.build(directory, 4, progress=False)


def _same_files(a: Path, b: Path) -> None:
    names = sorted(p.name for p in a.glob("*.egtb"))
    assert names == sorted(p.name for p in b.glob("*.egtb"))
    assert names
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def _run(*args: str, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shashki", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        **kwargs,
    )


def test_a_cluster_build_writes_the_same_bytes(cluster, local4, tmp_path: Path) -> None:
    address, client = cluster
    names = egtb.build(tmp_path, 4, scheduler=client, progress=False)
    assert names == local4[1]
    _same_files(local4[0], tmp_path)
    # The workers' own copies are gone when the build ends.
    held = client.run(lambda: bool(importlib.import_module("shashki.distributed")._CACHE))
    assert held and not any(held.values())


def test_a_shared_directory_build(cluster, tmp_path: Path) -> None:
    """With --shared the workers read and write the directory themselves (here the same
    machine's): the same files as one machine's build, another game's too."""
    address, _ = cluster
    local = tmp_path / "local"
    egtb.build(local, 3, variant="english", progress=False)
    there = tmp_path / "there"
    done = _run(
        "egtb",
        "build",
        str(there),
        "--pieces",
        "3",
        "--variant",
        "english",
        "--scheduler",
        address,
        "--shared",
    )
    assert done.returncode == 0, done.stderr
    assert "16 balances of up to 3 pieces" in done.stdout
    _same_files(local, there)


def test_a_worker_killed_mid_build_costs_only_its_task(cluster, local4, tmp_path: Path) -> None:
    address, client = cluster
    box: dict[str, object] = {}

    def build() -> None:
        try:
            box["names"] = egtb.build(tmp_path, 4, scheduler=address, progress=False)
        except BaseException as error:  # noqa: BLE001 - reported below
            box["error"] = error

    thread = threading.Thread(target=build)
    thread.start()
    killed = kill_a_busy_worker(client, "shashki-egtb-")
    thread.join(timeout=300)
    assert "error" not in box, box.get("error")
    assert box.get("names") == local4[1]
    assert killed.startswith("shashki-egtb-")
    _same_files(local4[0], tmp_path)
    client.wait_for_workers(2, timeout=60)  # the nanny's new worker


def test_an_interrupted_client_resumes(cluster, local4, tmp_path: Path) -> None:
    address, client = cluster
    command = [
        sys.executable,
        "-m",
        "shashki",
        "egtb",
        "build",
        str(tmp_path),
        "--pieces",
        "4",
        "--scheduler",
        address,
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while len(list(tmp_path.glob("*.egtb"))) < 8 and time.monotonic() < deadline:
        time.sleep(0.01)
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=120)
    kept = {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("*.egtb")}
    assert 8 <= len(kept)
    assert not list(tmp_path.glob("*.part"))
    again = _run("egtb", "build", str(tmp_path), "--pieces", "4", "--scheduler", address)
    assert again.returncode == 0, again.stderr
    assert "41 balances of up to 4 pieces" in again.stdout
    for name, mtime in kept.items():  # kept, not built again
        assert (tmp_path / name).stat().st_mtime_ns == mtime, name
    _same_files(local4[0], tmp_path)


def test_chosen_balances_on_the_cluster(cluster, local4, tmp_path: Path) -> None:
    _, client = cluster
    with pytest.raises(ValueError, match="KKvKK needs KvK, which is not in"):
        egtb.build(tmp_path, 4, scheduler=client, balances=["KKvKK"], progress=False)
    egtb.build(tmp_path, 3, progress=False)
    with pytest.raises(ValueError, match="WWvBB needs .*, which is not in"):
        egtb.build(tmp_path, 4, scheduler=client, balances=["WWvBB"], progress=False)
    names = egtb.build(tmp_path, 4, scheduler=client, balances=["KvKKK", "KKvKK"], progress=False)
    assert names == ["KKvKK", "KKKvK"]  # in build order; a mirror names its stored balance
    for name in ("KKKvK.egtb", "KKvKK.egtb"):
        assert (tmp_path / name).read_bytes() == (local4[0] / name).read_bytes()
    assert not (tmp_path / "WWvBB.egtb").exists()


def _games_in(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [part for part in text.split("[Event ")[1:]]


def test_a_worker_killed_mid_match_loses_nothing(cluster, tmp_path: Path) -> None:
    """A 12-pair match records 24 games, in its summary and its PDN, although a worker
    died while playing a pair (Dask plays that pair again elsewhere)."""
    address, client = cluster
    pdn_file = tmp_path / "games.pdn"
    command = [
        sys.executable,
        "-m",
        "shashki.match",
        "--a",
        "shashki",
        "--b",
        "shashki:hash=2",
        "--nodes",
        "400",
        "--pairs",
        "12",
        "--openings",
        "random",
        "--seed",
        "7",
        "--scheduler",
        address,
        "--pdn",
        str(pdn_file),
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed = kill_a_busy_worker(client, "play_pair")
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err
    assert killed.startswith("play_pair")
    assert "games 24:" in out
    games = _games_in(pdn_file)
    assert len(games) == 24
    openings = [g.split('[Opening "')[1].split('"')[0] for g in games]
    assert len(set(openings)) == 12 and all(openings.count(o) == 2 for o in openings)
    client.wait_for_workers(2, timeout=60)


def test_a_stopped_match_resumes_from_its_pdn(tmp_path: Path) -> None:
    """--resume counts the complete pairs of the PDN (a pair cut short is dropped) and plays
    the rest: 12 pairs in all, each opening once."""
    from shashki.openings import load_openings

    openings = load_openings("random", seed=3, variant="russian")[:12]
    pdn_file = tmp_path / "games.pdn"
    tc = TimeControl(nodes=300)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        first = run_match(
            "shashki", "shashki:hash=2", openings[:5], tc, executor=pool, pdn_path=str(pdn_file)
        )
    assert first.count == 5
    whole = pdn_file.read_text(encoding="utf-8")
    cut = whole + whole[: len(whole) // 7]  # a sixth pair's start, cut short
    pdn_file.write_text(cut, encoding="utf-8")
    with ThreadPoolExecutor(2) as pool:
        results = run_match(
            "shashki",
            "shashki:hash=2",
            openings,
            tc,
            executor=pool,
            pdn_path=str(pdn_file),
            resume=True,
        )
    assert results.count == 12
    assert results.wins + results.draws + results.losses == 24
    games = _games_in(pdn_file)
    assert len(games) == 24
    assert pdn_file.read_text(encoding="utf-8").startswith(whole)
    played = [g.split('[Opening "')[1].split('"')[0] for g in games]
    assert sorted(set(played)) == sorted(set(openings))
    assert all(played.count(o) == 2 for o in set(played))


def test_the_command_line_says_what_a_build_needs(tmp_path: Path) -> None:
    needs = egtb.requirements(6, "international")
    assert needs.balances == len(shashki._core.endgame_balances(6, variant="international"))
    assert needs.slots > 60_000_000_000
    assert needs.memory > 6 * 768_000_000 and needs.largest.startswith("international-")
    done = _run("egtb", "build", str(tmp_path), "--pieces", "3", "--variant", "english")
    assert done.returncode == 0
    assert "english, up to 3 pieces: 9 balances, 216,000 slots" in done.stderr
    assert "the largest build, english-" in done.stderr
    refused = _run("egtb", "build", str(tmp_path), "--pieces", "3", "--shared")
    assert refused.returncode == 2 and "--shared is for a cluster build" in refused.stderr
    unknown = _run("egtb", "build", str(tmp_path), "--pieces", "4", "--only", "KKKKKvK")
    assert unknown.returncode == 2 and "'KKKKKvK' is not a balance of russian" in unknown.stderr


def _listening(pids: set[int]) -> list[str]:
    """The local addresses (hex, as /proc/net/tcp* give them) of every listening TCP socket
    of the processes ``pids``."""
    inodes = set()
    for pid in pids:
        fds = Path(f"/proc/{pid}/fd")
        for fd in fds.iterdir() if fds.exists() else ():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    addresses = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                addresses.append(fields[1].split(":")[0])
    return addresses


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads Linux's /proc")
def test_the_clusters_sockets_are_on_127_0_0_1(cluster, tmp_path: Path) -> None:
    """The threat model (docs/cluster.md): a Dask scheduler runs what any client sends, so
    the local cluster listens on 127.0.0.1 only, its HTTP server too (which --no-dashboard
    alone would leave on 0.0.0.0:8787)."""
    _, client = cluster
    workers = set(client.run(os.getpid).values())
    nannies = {
        int(Path(f"/proc/{pid}/stat").read_text().split(")")[1].split()[1]) for pid in workers
    }
    pids = workers | nannies | {client.run_on_scheduler(os.getpid)}
    addresses = _listening(pids)
    assert len(addresses) >= 2 + 2 * len(workers)  # the scheduler's two, each worker's, nanny's
    assert set(addresses) <= {"0100007F", "00000000000000000000000001000000"}, addresses


def test_the_sprt_stops_the_whole_cluster(cluster) -> None:
    """A far stronger A: the SPRT accepts H1 long before the openings run out, and the pairs
    in flight on the workers are cancelled, not counted."""
    from shashki.apps.match.stats import sprt_bounds
    from shashki.openings import load_openings

    _, client = cluster
    openings = load_openings("random", seed=5, variant="russian")[:200]
    results = run_match(
        "shashki",
        "shashki:odds=0.01",
        openings,
        TimeControl(nodes=2000),
        scheduler=client,
        sprt=(0.0, 10.0),
    )
    assert results.llr(0.0, 10.0) >= sprt_bounds()[1]
    assert 2 <= results.count < 100
    assert results.wins + results.draws + results.losses == 2 * results.count
