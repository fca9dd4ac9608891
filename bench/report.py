#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Report on the unveil benchmark (scripts/bench).

Usage: bench/report.py DIR

Reads DIR/results.csv (kernel,mode,rules,op,depth,ns_per_op from
bench/unveil-bench.c) and DIR/cost.csv (the same columns, from
bench/unveil-cost.c: unveil() itself, fork and exec under a veil, threads),
prints the tables and the PASS/FAIL of the targets, and writes
DIR/table.txt, DIR/depth.png (cost vs path depth, one panel per call),
DIR/rules.png (cost vs number of rules) and DIR/setup.png (unveil() per call
vs rules).  From DIR/workloads.csv (workload,kernel,mode,name,run,ns from
bench/unveil-workload.c: real programs, one boot per kernel and mode), the
table of what a veil costs each, targets (j) and (k), and
DIR/workloads.png.  When DIR holds results-previous.csv, it also prints how
far this run is from that one.
"""

import csv
import os
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MODES = ["none", "veiled", "denied", "landlock"]
# Overhead targets of the issue: (a) open+close overhead of an allowing veil
# at most this share of Landlock's, (b) stat at depth 20 at most this much
# over none, (c) 1000 rules at most this much over 1 rule, (d) the unveil
# kernel without a veil at most this much slower than a kernel without unveil.
LANDLOCK_SHARE = 1 / 3
STAT_DEPTH = 20
STAT_OVERHEAD = 10.0
RULES_GROWTH = 2.0
KERNEL_OVERHEAD = 0.5
# Per level walked: (e) at most this many instructions, from the slope of
# the veiled overhead of open+close between depths 10 and 30; overhead
# ceilings in % over none, (f) at (call, depth), (g) at the deepest depth for
# every other call.
LEVEL_INSTRUCTIONS = 20
LEVEL_CEILINGS = {("open+close", 20): 3.5, ("stat", 20): 4.0, ("openat", 30): 12.0}
DEEPEST_CEILING = 5.0
# (h) unveil(): n calls cost O(n log n) or less: the mean per call at 1000
# rules at most log(1000)/log(10) = 3 times that at 10 rules.  (i) fork(),
# and fork() and execve() of a static program, under a veil: the veil is
# shared and kept, so 1000 rules cost what 100 do, within this share.
SETUP_GROWTH = 3.0
FORK_RULES_GROWTH = 1.0
# Real workloads, medians of their runs: (j) under a veil (the shipped or
# learned profile and the work directory) at most this much over no veil;
# (k) without a veil, the unveil kernel at most this much over the kernel
# without unveil.
WORKLOAD_VEIL = 1.0
WORKLOAD_KERNEL = 0.2


def load(path):
    """{(kernel, mode, rules, op, depth): ns}, the ops and depths in order."""
    results, ops, depths = {}, [], []
    with open(path, newline="") as f:
        for kernel, mode, rules, op, depth, ns in csv.reader(f):
            results[kernel, mode, int(rules), op, int(depth)] = float(ns)
            if op not in ops:
                ops.append(op)
            if int(depth) not in depths:
                depths.append(int(depth))
    return results, ops, sorted(depths)


def percent(value, base):
    return (value - base) / base * 100


def tables(results, ops, depths, rules):
    """The lines of the three tables."""
    lines = []
    few, many = rules[0], rules[-1]
    none = {(op, d): results["unveil", "none", 0, op, d] for op in ops for d in depths}

    lines.append(f"ns per call (QEMU -icount: 1 ns = 1 guest instruction) and overhead "
                 f"over none; {few} rule, unveil kernel")
    lines.append(f"{'call':<14}{'depth':>6}{'none':>10}" +
                 "".join(f"{m:>20}" for m in MODES[1:]))
    for op in ops:
        for d in depths:
            row = f"{op:<14}{d:>6}{none[op, d]:>10.0f}"
            for mode in MODES[1:]:
                ns = results["unveil", mode, few, op, d]
                row += f"{ns:>11.0f} {percent(ns, none[op, d]):>+7.1f}%"
            lines.append(row)

    lines.append("")
    lines.append(f"{few} rule vs {many} rules: ns per call and growth")
    lines.append(f"{'call':<14}{'depth':>6}" + "".join(f"{m:>28}" for m in MODES[1:]))
    for op in ops:
        for d in depths:
            row = f"{op:<14}{d:>6}"
            for mode in MODES[1:]:
                a = results["unveil", mode, few, op, d]
                b = results["unveil", mode, many, op, d]
                row += f"{a:>9.0f} {b:>9.0f} {percent(b, a):>+7.2f}%"
            lines.append(row)

    lines.append("")
    lines.append("mode none: kernel without unveil (nounveil) vs with unveil")
    lines.append(f"{'call':<14}{'depth':>6}{'nounveil':>10}{'unveil':>10}{'diff':>9}")
    for op in ops:
        for d in depths:
            base = results["nounveil", "none", 0, op, d]
            lines.append(f"{op:<14}{d:>6}{base:>10.0f}{none[op, d]:>10.0f}"
                         f"{percent(none[op, d], base):>+8.2f}%")
    return lines


def targets(results, ops, depths, rules):
    """(passed, description) of each target, with its worst case."""
    few, many = rules[0], rules[-1]

    def ns(mode, n, op, d, kernel="unveil"):
        return results[kernel, mode, n, op, d]

    found = []
    overheads = {d: (ns("veiled", few, "open+close", d) - ns("none", 0, "open+close", d),
                     ns("landlock", few, "open+close", d) - ns("none", 0, "open+close", d))
                 for d in depths}
    worst = max(depths, key=lambda d: overheads[d][0] - LANDLOCK_SHARE * overheads[d][1])
    veiled, landlock = overheads[worst]
    found.append((all(v <= LANDLOCK_SHARE * l for v, l in overheads.values()),
                  f"(a) open+close, veiled overhead <= 1/3 of Landlock's at every depth "
                  f"({few} rule): worst at depth {worst}: {veiled:+.0f} ns vs "
                  f"{landlock:+.0f} ns"))

    stat = percent(ns("veiled", few, "stat", STAT_DEPTH), ns("none", 0, "stat", STAT_DEPTH))
    found.append((stat <= STAT_OVERHEAD,
                  f"(b) stat at depth {STAT_DEPTH}, veiled <= +{STAT_OVERHEAD:.0f} % over none "
                  f"({few} rule): {stat:+.1f} %"))

    growth, op, d = max((percent(ns("veiled", many, op, d), ns("veiled", few, op, d)), op, d)
                        for op in ops for d in depths)
    found.append((growth <= RULES_GROWTH,
                  f"(c) veiled, {many} rules <= +{RULES_GROWTH:.0f} % over {few} rule, every call "
                  f"and depth: worst {op} depth {d}: {growth:+.2f} %"))

    slower, op, d = max((percent(ns("none", 0, op, d), ns("none", 0, op, d, "nounveil")), op, d)
                        for op in ops for d in depths)
    found.append((slower <= KERNEL_OVERHEAD,
                  f"(d) none, unveil kernel <= +{KERNEL_OVERHEAD} % over nounveil kernel, every "
                  f"call and depth: worst {op} depth {d}: {slower:+.2f} %"))

    def overhead(op, d):
        return ns("veiled", few, op, d) - ns("none", 0, op, d)

    per_level = (overhead("open+close", depths[-1]) - overhead("open+close", 10)) / \
        (depths[-1] - 10)
    found.append((per_level <= LEVEL_INSTRUCTIONS,
                  f"(e) per level walked <= {LEVEL_INSTRUCTIONS} instructions (open+close, "
                  f"depth 10 to {depths[-1]}): {per_level:.1f}"))
    for (op, d), ceiling in LEVEL_CEILINGS.items():
        value = percent(ns("veiled", few, op, d), ns("none", 0, op, d))
        found.append((value <= ceiling,
                      f"(f) {op} at depth {d}, veiled <= +{ceiling} % over none: {value:+.2f} %"))
    deepest, op = max((percent(ns("veiled", few, op, depths[-1]), ns("none", 0, op, depths[-1])),
                       op) for op in ops if op != "openat")
    found.append((deepest <= DEEPEST_CEILING,
                  f"(g) every call but openat at depth {depths[-1]}, veiled <= "
                  f"+{DEEPEST_CEILING} % over none: worst {op}: {deepest:+.2f} %"))
    return found


def cost_targets(cost):
    """(passed, description) of the targets on unveil() and fork()."""
    found = []
    growth = cost["setup", 1000, "add", 0] / cost["setup", 10, "add", 0]
    found.append((growth <= SETUP_GROWTH,
                  f"(h) unveil(), mean per call at 1000 rules <= {SETUP_GROWTH:.0f} x at 10: "
                  f"{growth:.2f} x"))
    for op, call in (("fork", "fork()"), ("exec", "fork() + execve()")):
        growth = percent(cost["process", 1000, op, 0], cost["process", 100, op, 0])
        found.append((abs(growth) <= FORK_RULES_GROWTH,
                      f"(i) {call} under 1000 rules within {FORK_RULES_GROWTH} % of under "
                      f"100: {growth:+.2f} %"))
    return found


def cost_tables(cost):
    """The lines of the tables of unveil-cost."""
    lines = ["unveil() itself (ns, -icount): per call over all calls, per call over the "
             "last tenth, unveil(NULL, NULL); 2000 = 1000 directory + 1000 name rules"]
    lines.append(f"{'rules':>6}{'per call':>12}{'last tenth':>12}{'lock':>10}{'total':>12}")
    for n in sorted({k[1] for k in cost if k[0] == "setup"}):
        add, last, lock = (cost["setup", n, op, 0] for op in ("add", "add-last", "lock"))
        lines.append(f"{n:>6}{add:>12.0f}{last:>12.0f}{lock:>10.0f}{add * n + lock:>12.0f}")
    lines.append("")
    lines.append("fork() + _exit() + wait(), fork() + execve() + wait() (ns, -icount), and "
                 "over no veil")
    base = {op: cost["process", 0, op, 0] for op in ("fork", "exec")}
    lines.append(f"{'rules':>6}{'fork':>10}{'':>9}{'exec':>10}")
    for n in sorted({k[1] for k in cost if k[0] == "process"}):
        row = f"{n:>6}"
        for op in ("fork", "exec"):
            value = cost["process", n, op, 0]
            row += f"{value:>10.0f}{percent(value, base[op]):>+8.2f}%"
        lines.append(row)
    threads = sorted({k[3] for k in cost if k[0] == "threads"})
    if threads:
        lines.append("")
        lines.append("open+close at depth 10 on 2 vCPUs, wall clock (no -icount): ns per call "
                     "per thread, and the speed-up of 2 threads over 1")
        lines.append(f"{'mode':<10}" + "".join(f"{t:>9} thr" for t in threads) + f"{'speed-up':>10}")
        for mode in ("none", "veiled", "landlock"):
            values = [cost["threads", 1, mode, t] for t in threads]
            lines.append(f"{mode:<10}" + "".join(f"{v:>13.0f}" for v in values) +
                         f"{values[0] / values[-1] * threads[-1]:>10.2f}")
    return lines


# Not a workload: the launcher's start, "unveil --profile git -- true" in
# the modes with a veil, "true" without.
LAUNCHER_START = "start"


def load_workloads(path):
    """{(kernel, mode, name): median ns}, and the workloads' names in order."""
    runs, names = {}, []
    with open(path, newline="") as f:
        for _, kernel, mode, name, _, ns in csv.reader(f):
            runs.setdefault((kernel, mode, name), []).append(float(ns))
            if name not in names and name != LAUNCHER_START:
                names.append(name)
    return {k: statistics.median(v) for k, v in runs.items()}, names


def launcher_start(medians):
    """The line on what the launcher's start costs, apart from the veil."""
    def cost(kernel, mode):
        return (medians[kernel, mode, LAUNCHER_START] -
                medians[kernel, "none", LAUNCHER_START]) / 1e6

    return (f"the launcher's start, not in the figures above (unveil --lock --profile git "
            f"--rwc DIR -- true, less true alone): {cost('unveil', 'unveil'):.2f} ms with "
            f"unveil, {cost('landlock', 'landlock'):.2f} ms with Landlock")


def workload_overheads(medians, name):
    """% of a veil of unveil, of Landlock, and of the unveil kernel."""
    return (percent(medians["unveil", "unveil", name], medians["unveil", "none", name]),
            percent(medians["landlock", "landlock", name], medians["landlock", "none", name]),
            percent(medians["unveil", "none", name], medians["nounveil", "none", name]))


def workload_table(medians, names):
    """The lines of the table of the real workloads."""
    lines = ["real workloads (median ms, QEMU -icount: 1 ms = 1e6 instructions): no veil, "
             "and the overhead of a veil of unveil (its boot) and of Landlock (the same "
             "kernel booted with lsm=landlock), each run a fork and an exec under a veil "
             "put on once; the unveil kernel without a veil over the kernel without "
             "unveil"]
    lines.append(f"{'workload':<12}{'none':>10}{'unveil':>10}{'Landlock':>10}"
                 f"{'nounveil':>10}{'built in':>10}")
    for name in names:
        unveil, landlock, kernel = workload_overheads(medians, name)
        lines.append(f"{name:<12}{medians['unveil', 'none', name] / 1e6:>10.1f}"
                     f"{unveil:>+9.2f}%{landlock:>+9.2f}%"
                     f"{medians['nounveil', 'none', name] / 1e6:>10.1f}{kernel:>+9.2f}%")
    lines.append(launcher_start(medians))
    return lines


def workload_targets(medians, names):
    """(passed, description) of targets (j) and (k), with the worst case."""
    overheads = {name: workload_overheads(medians, name) for name in names}
    veil = max(names, key=lambda n: overheads[n][0])
    kernel = max(names, key=lambda n: overheads[n][2])
    return [(overheads[veil][0] <= WORKLOAD_VEIL,
             f"(j) every workload under a veil <= +{WORKLOAD_VEIL} % over none: worst "
             f"{veil}: {overheads[veil][0]:+.2f} % (Landlock {overheads[veil][1]:+.2f} %)"),
            (overheads[kernel][2] <= WORKLOAD_KERNEL,
             f"(k) every workload without a veil, unveil kernel <= +{WORKLOAD_KERNEL} % over "
             f"nounveil kernel: worst {kernel}: {overheads[kernel][2]:+.2f} %")]


def plot_workloads(medians, names, path):
    fig, ax = plt.subplots(figsize=(9, 5))
    overheads = [workload_overheads(medians, name) for name in names]
    width = 0.27
    for i, label in enumerate(("unveil veil", "Landlock veil", "unveil kernel, no veil")):
        ax.bar([x + (i - 1) * width for x in range(len(names))], [o[i] for o in overheads],
               width, label=label, color=f"C{i}")
    ax.axhline(WORKLOAD_VEIL, color="C0", linestyle="--", linewidth=1)
    ax.axhline(0, color="k", linewidth=0.5)
    ax.set_xticks(range(len(names)), names)
    ax.set_ylabel("overhead over no veil, %")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=3)
    ax.set_title("What a veil costs real programs (QEMU -icount, medians)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def repeatability(results, previous_path):
    """A line on the largest difference from the previous run."""
    previous, _, _ = load(previous_path)
    common = [k for k in results if k in previous]
    if not common:
        return "previous run: no cell in common"
    key = max(common, key=lambda k: abs(percent(results[k], previous[k])))
    return (f"against the previous run: {len(common)} cells, largest difference "
            f"{percent(results[key], previous[key]):+.3f} % ({','.join(map(str, key))})")


def save(fig, axes, path):
    """Writes @fig with one legend for all panels, below them."""
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels))
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    fig.savefig(path, dpi=100)


def plot_depth(results, ops, depths, rules, path):
    fig, axes = plt.subplots(2, (len(ops) + 1) // 2, figsize=(15, 8), squeeze=False)
    for ax, op in zip(axes.flat, ops):
        ax.plot(depths, [results["nounveil", "none", 0, op, d] for d in depths],
                "k:", label="none, nounveil kernel")
        for mode in MODES:
            n = 0 if mode == "none" else rules[0]
            ax.plot(depths, [results["unveil", mode, n, op, d] for d in depths],
                    marker="o", label=mode)
        ax.set_title(op)
        ax.set_xlabel("path depth")
        ax.set_ylabel("ns per call")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    fig.suptitle(f"Cost vs path depth ({rules[0]} rule, QEMU -icount: 1 ns = 1 instruction)")
    save(fig, axes, path)


def plot_rules(results, ops, depths, rules, path):
    fig, axes = plt.subplots(2, (len(ops) + 1) // 2, figsize=(15, 8), squeeze=False)
    for ax, op in zip(axes.flat, ops):
        for i, mode in enumerate(MODES[1:]):
            for d, style in zip((depths[0], depths[-1]), ("-", "--")):
                ax.plot(rules, [results["unveil", mode, n, op, d] for n in rules],
                        style, color=f"C{i + 1}", marker="o",
                        label=f"{mode}, depth {d}")
        ax.set_title(op)
        ax.set_xscale("log")
        ax.set_xlabel("rules")
        ax.set_ylabel("ns per call")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    fig.suptitle("Cost vs number of rules (QEMU -icount: 1 ns = 1 instruction)")
    save(fig, axes, path)


def load_cost(path):
    """{(mode, rules, op, depth): ns} of unveil-cost."""
    with open(path, newline="") as f:
        return {(mode, int(rules), op, int(depth)): float(ns)
                for _, mode, rules, op, depth, ns in csv.reader(f)}


def plot_setup(cost, path):
    fig, ax = plt.subplots(figsize=(7, 5))
    counts = sorted(n for n in {k[1] for k in cost if k[0] == "setup"} if n <= 1000)
    for op, label in (("add", "per call, over all calls"), ("add-last", "per call, last tenth")):
        ax.plot(counts, [cost["setup", n, op, 0] for n in counts], marker="o", label=label)
    ax.set_xscale("log")
    ax.set_xlabel("directory rules")
    ax.set_ylabel("ns per unveil() call")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title("unveil() per call vs rules (QEMU -icount)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    results, ops, depths = load(os.path.join(out, "results.csv"))
    cost = load_cost(os.path.join(out, "cost.csv"))
    rules = sorted({k[2] for k in results if k[1] != "none"})

    lines = tables(results, ops, depths, rules)
    lines.append("")
    lines += cost_tables(cost)
    medians, names = load_workloads(os.path.join(out, "workloads.csv"))
    lines.append("")
    lines += workload_table(medians, names)
    lines.append("")
    lines.append("targets")
    for ok, text in (targets(results, ops, depths, rules) + cost_targets(cost) +
                     workload_targets(medians, names)):
        lines.append(f"{'PASS' if ok else 'FAIL'} {text}")
    previous = os.path.join(out, "results-previous.csv")
    if os.path.exists(previous):
        lines.append("")
        lines.append(repeatability(results, previous))
    text = "\n".join(lines) + "\n"
    print(text, end="")
    with open(os.path.join(out, "table.txt"), "w") as f:
        f.write(text)
    plot_depth(results, ops, depths, rules, os.path.join(out, "depth.png"))
    plot_rules(results, ops, depths, rules, os.path.join(out, "rules.png"))
    plot_setup(cost, os.path.join(out, "setup.png"))
    plot_workloads(medians, names, os.path.join(out, "workloads.png"))


if __name__ == "__main__":
    main()
