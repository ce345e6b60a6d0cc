#!/usr/bin/env python3
"""Decides the fact sets of a JSON file with GoRules ZEN (pip install zen-engine) and prints its
timings as one JSON object; reckon-bench peers runs it beside Reckon on the same fact sets.

Usage: zen-decide.py DECISION.jdm.json FACTS.json RULES-OUT.json [--runs N]
Exit 3 (and a line on standard error) when zen-engine is not installed.
"""
import json
import re
import statistics
import sys
import time

try:
    import zen
except ImportError:
    print("zen-engine is not installed (pip install zen-engine)", file=sys.stderr)
    sys.exit(3)

UNITS = {"ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}


def nanoseconds(performance):
    """ZEN's own timer, as it prints it ("12.3µs"), in nanoseconds."""
    match = re.fullmatch(r"([0-9.]+)\s*(ns|µs|us|ms|s)", performance.strip())
    return float(match.group(1)) * UNITS[match.group(2)] if match else None


def main(argv):
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 5
    with open(argv[1], encoding="utf-8") as handle:
        content = handle.read()
    with open(argv[2], encoding="utf-8") as handle:
        fact_sets = json.load(handle)
    decision = zen.ZenEngine().create_decision(content)
    engine = zen.ZenEngine({"loader": {"type": "static", "content": {"policy": json.loads(content)}}})
    count = len(fact_sets)

    rules = [decision.evaluate(facts)["result"].get("rule") for facts in fact_sets]
    with open(argv[3], "w", encoding="utf-8") as handle:
        json.dump(rules, handle)

    per_call, own_timer, batch = [], [], []
    for _ in range(runs):
        own = 0.0
        start = time.perf_counter_ns()
        for facts in fact_sets:
            timed = nanoseconds(decision.evaluate(facts)["performance"])
            own = None if own is None or timed is None else own + timed
        per_call.append((time.perf_counter_ns() - start) / count)
        if own is not None:
            own_timer.append(own / count)
        requests = [{"key": "policy", "context": facts} for facts in fact_sets]
        start = time.perf_counter_ns()
        engine.evaluate_batch(requests)
        batch.append((time.perf_counter_ns() - start) / count)
    print(json.dumps({
        "count": count,
        "runs": runs,
        # null when ZEN's timer printed something this script cannot read
        "zen_timer_ns": statistics.median(own_timer) if len(own_timer) == runs else None,
        "per_call_ns": statistics.median(per_call),
        "batch_ns": statistics.median(batch),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
