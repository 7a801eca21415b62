"""What a table build would take on N machines: the balances' dependency graph (from
``shashki._core.endgame_balances``) scheduled on ``--machines`` machines of ``--cores``
cores, each balance's work its slots times a measured cost a slot, as docs/cluster.md
reports it. Nothing is built: a plan from measured figures.

    python benches/cluster_plan.py --variant international --pieces 6 --from 6 \\
        --cpu-per-slot 4.6e-7 --machines 1,10,100 --cores 16

``--cpu-per-slot``: CPU seconds a stored slot takes to build (measure it: a build's CPU time
over its slots, benches/egtb_games.py); ``--from``: the pieces of the first balances to
build (those below are taken as built already); ``--efficiency``: the share of its cores a
build uses (its threads wait at each distance's end). A machine builds one balance at a
time with all its cores (a balance needs its memory); the balances that the most work
waits on go first (the longest path to the end). Prints the time on each number of
machines, the critical path (the time on unboundedly many) and the largest balance's
memory, one Markdown row a machine count."""

from __future__ import annotations

import argparse
import heapq

from shashki import _core, egtb


def duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    if seconds >= 60:
        return f"{seconds / 60:.1f} min"
    return f"{seconds:.1f} s"


def pieces_of(name: str) -> int:
    return sum(ch in "KWB" for ch in name.rpartition("-")[2])


def schedule(
    order: list[tuple[str, int, list[str]]],
    tasks: dict[str, float],
    seconds_per_slot: float,
    machines: int,
) -> tuple[float, float]:
    """(The time of the whole on ``machines`` machines, the critical path): list
    scheduling by the longest path to the end, the order the cluster build hands out
    balances in (its ranks in slots, here in seconds)."""
    from shashki.distributed import _critical_path

    needs = {name: d for name, _, d in order}
    rank = {
        name: slots * seconds_per_slot
        for name, slots in _critical_path(order, set(tasks)).items()
        if name in tasks
    }
    users: dict[str, list[str]] = {name: [] for name in tasks}
    for name in tasks:
        for need in needs[name]:
            if need in tasks:
                users[need].append(name)
    waiting = {name: sum(need in tasks for need in needs[name]) for name in tasks}
    ready = [(-rank[name], name) for name in tasks if waiting[name] == 0]
    heapq.heapify(ready)
    running: list[tuple[float, str]] = []
    now, free = 0.0, machines
    while ready or running:
        while ready and free:
            _, name = heapq.heappop(ready)
            heapq.heappush(running, (now + tasks[name], name))
            free -= 1
        now, name = heapq.heappop(running)
        free += 1
        for user in users[name]:
            waiting[user] -= 1
            if waiting[user] == 0:
                heapq.heappush(ready, (-rank[user], user))
    return now, max(rank.values(), default=0.0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="international")
    parser.add_argument("--pieces", type=int, default=6)
    parser.add_argument("--from", dest="start", type=int, default=2)
    parser.add_argument("--cpu-per-slot", type=float, required=True)
    parser.add_argument("--machines", default="1,10,100")
    parser.add_argument("--cores", type=int, default=16)
    parser.add_argument("--efficiency", type=float, default=0.85)
    args = parser.parse_args()
    order = _core.endgame_balances(args.pieces, variant=args.variant)
    chosen = [(n, s, d) for n, s, d in order if pieces_of(n) >= args.start]
    speed = args.cores * args.efficiency
    tasks = {name: slots * args.cpu_per_slot / speed for name, slots, _ in chosen}
    slots = sum(s for _, s, _ in chosen)
    memory = egtb.requirements(args.pieces, args.variant, balances=list(tasks))
    print(
        f"{args.variant}, balances of {args.start} to {args.pieces} pieces: {len(tasks)}, "
        f"{slots:,} slots, {duration(slots * args.cpu_per_slot)} of CPU; "
        f"the largest build {memory.largest} needs {memory.memory / 1e9:.1f} GB"
    )
    print("| machines | cores each | time | critical path |")
    print("|---|---|---|---|")
    for machines in (int(m) for m in args.machines.split(",")):
        total, critical = schedule(order, tasks, args.cpu_per_slot / speed, machines)
        print(f"| {machines} | {args.cores} | {duration(total)} | {duration(critical)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
