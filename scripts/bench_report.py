#!/usr/bin/env python3
"""Markdown tables (and, with matplotlib, PNG plots) from gpusort's benchmark JSON files.

Reads the Google Benchmark JSON of bench_sort, bench_block_sort and bench_baselines
(--benchmark_out=FILE --benchmark_out_format=json; scripts/gpu_check.sh writes them as
bench_<name>.json) and writes, per file, with the device, CUDA / CUB versions and date:

  * sorts: per item type and n, each method's median time, Mkeys/s, GB/s and its time as a
    ratio of cub_radix's and cub_merge's from the same file (and of a measured device copy,
    where one of the files has memcpy_d2d figures for that byte count on that device);
  * distribution sensitivity: per method at a fixed n, the time on each input distribution
    and the slowest / fastest ratio;
  * the tile-local sort (block_sort/...): each block sort against cub_merge per tile shape;
  * the device-to-device copy ceiling (memcpy_d2d/...).

Figures are the "median" aggregates over repetitions (when a file has no aggregates, the
median of its iterations). With matplotlib it also draws throughput-vs-n per item type (CUB
dashed, as the reference) and distribution bars, into --png-dir.

  scripts/bench_report.py gpu_check_out/bench_*.json                 # markdown to stdout
  scripts/bench_report.py -o report.md --png-dir plots bench_*.json  # file + PNGs

Standard library only; matplotlib is optional.
"""

import argparse
import datetime
import json
import math
import os
import re
import statistics
import sys

CUB_RADIX = "cub_radix"
CUB_MERGE = "cub_merge"
AUTOMATIC = "gpusort_automatic"
AUTOMATIC_BOUND = 1.10  # issue 9: automatic at most 10 % slower than the best policy
# automatic is stable (README): where ties can be observed (values beside the keys, struct keys
# under a comparator whose ties need not be the same bits) only these policies keep that promise.
STABLE_POLICIES = {"gpusort_merge"}
STRUCT_KEYS = {"key12", "key16", "key64"}
BLOCK_REFERENCE = "cub_merge"  # the block sort every other block sort is compared with
TIME_TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
# Bytes of one key or value, by the names the harness gives types (bench/common/harness.cuh).
TYPE_BYTES = {"u32": 4, "i32": 4, "f32": 4, "u64": 8, "i64": 8, "f64": 8,
              "key12": 12, "key16": 16, "key64": 64, "value16": 16}
# Parts of a run name that say how it was run, not what: dropped before parsing.
RUN_DECORATIONS = re.compile(r"/(repeats|iterations|min_time|min_warmup_time|threads):[^/]*"
                             r"|/(manual_time|real_time|process_time)$")


# ---- reading -------------------------------------------------------------------------------

def parse_size(text):
    """'2^24' -> 16777216, '1000003' -> 1000003; None if neither."""
    m = re.fullmatch(r"2\^(\d+)", text)
    if m:
        return 1 << int(m.group(1))
    return int(text) if text.isdigit() else None


def size_label(n):
    return "2^%d" % (n.bit_length() - 1) if n > 0 and n & (n - 1) == 0 else str(n)


def item_bytes(item):
    """'u32' -> 4, 'u32:u32' -> 8; None for a type this script does not know."""
    sizes = [TYPE_BYTES.get(part) for part in item.split(":")]
    return None if None in sizes else sum(sizes)


def item_order(item):
    """Keys before pairs, smaller items first."""
    return (":" in item, item_bytes(item) or 0, item)


def describe_item(item):
    return ("%s pairs" % item) if ":" in item else ("%s keys" % item)


class Record:
    """One benchmark's median: what was run (parsed from its name) and the figures."""

    def __init__(self, name, ms, counters):
        self.name = name
        self.ms = ms
        self.counters = counters
        self.kind = None          # "sort", "block", "copy" or None (not understood)
        self.method = self.item = self.dist = None
        self.n = None
        self.tile = self.shape = None
        self.bytes = None
        parts = name.split("/")
        if parts[0] == "block_sort" and len(parts) >= 5 and parts[3].startswith("tile:"):
            self.kind = "block"
            self.method, self.item = parts[1], parts[2]
            self.tile = parse_size(parts[3][len("tile:"):])
            self.shape = parts[4]
        elif parts[0] == "memcpy_d2d" and len(parts) >= 2 and parts[1].startswith("bytes:"):
            self.kind = "copy"
            self.bytes = parse_size(parts[1][len("bytes:"):])
        elif len(parts) >= 4 and parts[3].startswith("n:"):
            self.kind = "sort"
            self.method, self.item, self.dist = parts[0], parts[1], parts[2]
            self.n = parse_size(parts[3][len("n:"):])
        size = {"sort": self.n, "block": self.tile, "copy": self.bytes}.get(self.kind)
        if size is None:
            self.kind = None  # not one of the known shapes, or a size that did not parse

    def items(self):
        """How many keys the benchmark sorted (or moved): n, or tiles x tile."""
        if self.kind == "sort":
            return self.n
        if self.kind == "block" and "tiles" in self.counters and self.tile:
            return self.counters["tiles"] * self.tile
        return None

    def mkeys(self):
        if "Mkeys/s" in self.counters:
            return self.counters["Mkeys/s"]
        count = self.items()
        return count / self.ms / 1e3 if count and self.ms > 0 else None

    def gbs(self):
        if "GB/s" in self.counters:
            return self.counters["GB/s"]
        count, size = self.items(), item_bytes(self.item) if self.item else None
        if self.kind == "copy" and self.bytes:
            count, size = self.bytes, 1
        return 2 * count * size / self.ms / 1e6 if count and size and self.ms > 0 else None


class Source:
    """One JSON file: its context and its records."""

    def __init__(self, path, data):
        self.path = path
        self.context = data.get("context", {})
        self.records = []
        self.errors = []     # (name, message) of runs that reported an error
        self.unknown = []    # names this script could not place in a table
        self._read(data.get("benchmarks", []))

    @property
    def label(self):
        exe = self.context.get("executable")
        return os.path.basename(exe) if exe else os.path.splitext(os.path.basename(self.path))[0]

    @property
    def stem(self):
        return os.path.splitext(os.path.basename(self.path))[0]

    @property
    def device(self):
        c = self.context
        for key in ("gpusort_device", "gpu", "device", "gpu_name"):
            if c.get(key):
                return str(c[key])
        return "unknown device (host %s)" % c.get("host_name", "?")

    def _read(self, benchmarks):
        medians, iterations, order = {}, {}, []
        for b in benchmarks:
            # Twice: a decoration only counts at the end once the one after it is gone.
            run = RUN_DECORATIONS.sub("", b.get("run_name") or b.get("name", ""))
            run = RUN_DECORATIONS.sub("", run)
            if run not in order:
                order.append(run)
            if b.get("error_occurred"):
                self.errors.append((run, b.get("error_message", "error")))
                continue
            if "real_time" not in b:
                continue
            ms = b["real_time"] * TIME_TO_MS.get(b.get("time_unit", "ns"), 1e-6)
            counters = {k: v for k, v in b.items()
                        if isinstance(v, (int, float)) and not isinstance(v, bool)
                        and k not in ("real_time", "cpu_time", "iterations", "repetitions",
                                      "repetition_index", "threads", "family_index",
                                      "per_family_instance_index")
                        and not (isinstance(v, float) and math.isnan(v))}
            if b.get("run_type") == "aggregate":
                if b.get("aggregate_name") == "median":
                    medians[run] = (ms, counters)
            else:
                iterations.setdefault(run, []).append((ms, counters))
        for run in order:
            if run in medians:
                ms, counters = medians[run]
            elif run in iterations:
                # No aggregates (run without repetitions): the median iteration time; the
                # counters are recomputed from it rather than taken from one iteration.
                ms = statistics.median(t for t, _ in iterations[run])
                counters = {k: v for k, v in iterations[run][0][1].items()
                            if k not in ("Mkeys/s", "GB/s")}
            else:
                continue
            record = Record(run, ms, counters)
            (self.records if record.kind else self.unknown).append(record)


def salvage(text):
    """The complete entries of a file whose writer was stopped mid-run (gpu_check.sh keeps
    such a file as "partial"): Google Benchmark writes one indented object per entry, so cut
    after the last one that closed and close the list. None if that does not parse either."""
    end = text.rfind("\n    }")
    if end < 0:
        return None
    try:
        return json.loads(text[:end + len("\n    }")] + "\n  ]\n}")
    except ValueError:
        return None


def load(paths):
    sources = []
    for path in paths:
        try:
            with open(path) as f:
                text = f.read()
        except OSError as e:
            print("bench_report: skipping %s: %s" % (path, e), file=sys.stderr)
            continue
        try:
            data = json.loads(text)
        except ValueError as e:
            data = salvage(text)
            if data is None:
                print("bench_report: skipping %s: %s" % (path, e), file=sys.stderr)
                continue
            print("bench_report: %s is incomplete (%s); using its %d complete entries"
                  % (path, e, len(data.get("benchmarks", []))), file=sys.stderr)
        sources.append(Source(path, data))
    return sources


# ---- formatting ----------------------------------------------------------------------------

def fmt_ms(v):
    if v is None:
        return "—"
    return "%.1f" % v if v >= 100 else "%.3f" % v if v >= 1 else "%.4f" % v


def fmt(v, digits):
    return "—" if v is None else "%.*f" % (digits, v)


def fmt_version(text, kind):
    """CUDA 13000 -> 13.0; CUB 300001 -> 3.0.1 (CUB_VERSION = major*100000 + minor*100 + patch)."""
    try:
        v = int(text)
    except (TypeError, ValueError):
        return None
    if kind == "cuda":
        return "%d.%d" % (v // 1000, v % 1000 // 10)
    return "%d.%d.%d" % (v // 100000, v // 100 % 1000, v % 100)


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def method_order(method):
    """gpusort's methods first (alphabetical), then CUB radix, CUB merge, then the rest."""
    if method.startswith("gpusort"):
        return (0, method)
    return ({CUB_RADIX: 1, CUB_MERGE: 2}.get(method, 3), method)


def ratio(a, b):
    return a / b if a is not None and b else None


# ---- tables --------------------------------------------------------------------------------

def primary_distribution(records):
    dists = [r.dist for r in records]
    return "uniform" if "uniform" in dists else max(set(dists), key=dists.count)


def copy_lookup(sources):
    """(device, bytes) -> GB/s of the measured device-to-device copy, from every file."""
    copies = {}
    for s in sources:
        for r in s.records:
            if r.kind == "copy" and r.gbs() is not None:
                copies[(s.device, r.bytes)] = r.gbs()
    return copies


def sort_tables(source, copies, out):
    sorts = [r for r in source.records if r.kind == "sort"]
    if not sorts:
        return
    by_key = {(r.method, r.item, r.dist, r.n): r for r in sorts}
    with_copy = any(dev == source.device for dev, _ in copies)
    for item in sorted({r.item for r in sorts}, key=item_order):
        records = [r for r in sorts if r.item == item]
        dist = primary_distribution(records)
        records = [r for r in records if r.dist == dist]
        header = ["n", "method", "median ms", "Mkeys/s", "GB/s", "vs CUB radix", "vs CUB merge"]
        if with_copy:
            header.append("GB/s vs copy")
        rows = []
        for r in sorted(records, key=lambda r: (r.n, method_order(r.method))):
            radix = by_key.get((CUB_RADIX, item, dist, r.n))
            merge = by_key.get((CUB_MERGE, item, dist, r.n))
            row = [size_label(r.n), "`%s`" % r.method, fmt_ms(r.ms), fmt(r.mkeys(), 0),
                   fmt(r.gbs(), 1), fmt(ratio(r.ms, radix and radix.ms), 2),
                   fmt(ratio(r.ms, merge and merge.ms), 2)]
            if with_copy:
                size = item_bytes(item)
                copy = copies.get((source.device, r.n * size)) if size else None
                row.append(fmt(ratio(r.gbs(), copy), 2))
            rows.append(row)
        out.append("### Sorts: %s, %s\n" % (describe_item(item), dist))
        out.append(table(header, rows) + "\n")


def distribution_tables(source, out):
    """Per item type and n with more than one distribution: time per distribution."""
    sorts = [r for r in source.records if r.kind == "sort"]
    found = []
    for item, n in sorted({(r.item, r.n) for r in sorts}, key=lambda k: (item_order(k[0]), k[1])):
        records = [r for r in sorts if r.item == item and r.n == n]
        dists = []
        for r in records:  # in the order the file has them
            if r.dist not in dists:
                dists.append(r.dist)
        if len(dists) < 2:
            continue
        rows = []
        for method in sorted({r.method for r in records}, key=method_order):
            times = {r.dist: r.ms for r in records if r.method == method}
            slow = max(times, key=times.get)
            fast = min(times, key=times.get)
            rows.append(["`%s`" % method] + [fmt_ms(times.get(d)) for d in dists] +
                        ["%.2f (%s / %s)" % (times[slow] / times[fast], slow, fast)])
        out.append("### Distribution sensitivity: %s, n = %s (median ms)\n"
                   % (describe_item(item), size_label(n)))
        out.append(table(["method"] + dists + ["slowest / fastest"], rows) + "\n")
        found.append((item, n, dists, records))
    return found


def ties_observable(item):
    """Whether a sort that is not stable can be told from one that is, for these items."""
    return ":" in item or item in STRUCT_KEYS


def automatic_table(source, out):
    """policy::automatic against the fastest of the other gpusort policies that keep its
    promise (stability) on each input; the fastest of all beside it where that differs."""
    sorts = [r for r in source.records if r.kind == "sort"]
    inputs = sorted({(r.item, r.dist, r.n) for r in sorts if r.method == AUTOMATIC},
                    key=lambda k: (item_order(k[0]), k[1] != "uniform", k[1], k[2]))
    rows, within = [], 0
    for item, dist, n in inputs:
        same = [r for r in sorts if (r.item, r.dist, r.n) == (item, dist, n)]
        automatic = next(r for r in same if r.method == AUTOMATIC)
        others = [r for r in same if r.method.startswith("gpusort") and r.method != AUTOMATIC]
        eligible = [r for r in others
                    if not ties_observable(item) or r.method in STABLE_POLICIES]
        if not eligible:
            continue
        best = min(eligible, key=lambda r: r.ms)
        fastest = min(others, key=lambda r: r.ms)
        share = automatic.ms / best.ms
        within += share <= AUTOMATIC_BOUND
        unstable = ("`%s` %s" % (fastest.method, fmt_ms(fastest.ms))
                    if fastest is not best else "")
        rows.append([describe_item(item), dist, size_label(n), fmt_ms(automatic.ms),
                     "`%s`" % best.method, fmt_ms(best.ms), fmt(share, 3), unstable])
    if not rows:
        return
    out.append("### policy::automatic against the best other gpusort policy (median ms)\n")
    out.append("Where ties can be observed (pairs, struct keys) automatic stays stable, so it "
               "is held to the stable policies there; the last column names a faster policy "
               "that is not stable.\n")
    out.append(table(["items", "distribution", "n", "automatic", "best other", "its ms",
                      "automatic / best", "faster, not stable"], rows) + "\n")
    out.append("Within %.2f× of the best: %d of %d inputs.\n" % (AUTOMATIC_BOUND, within, len(rows)))


def block_table(source, out):
    blocks = [r for r in source.records if r.kind == "block"]
    if not blocks:
        return []
    by_key = {(r.method, r.item, r.tile, r.shape): r for r in blocks}
    rows, pairs = [], []
    configs = sorted({(r.item, r.tile, r.shape) for r in blocks},
                     key=lambda k: (item_order(k[0]), k[1], k[2]))
    for item, tile, shape in configs:
        reference = by_key.get((BLOCK_REFERENCE, item, tile, shape))
        for method in sorted({r.method for r in blocks if r.method != BLOCK_REFERENCE}):
            r = by_key.get((method, item, tile, shape))
            if r is None:
                continue
            rows.append([item, tile, shape.replace("x", " × "), "`%s`" % method, fmt_ms(r.ms),
                         fmt_ms(reference and reference.ms), fmt(r.mkeys(), 0),
                         fmt(reference and reference.mkeys(), 0),
                         fmt(ratio(r.ms, reference and reference.ms), 2)])
            pairs.append((item, tile, shape, method, r, reference))
    out.append("### Tile-local sort (block_sort): each block sort against CUB BlockMergeSort\n")
    out.append(table(["key", "tile", "threads × items", "block sort", "median ms",
                      "CUB merge ms", "Mkeys/s", "CUB merge Mkeys/s", "time / CUB"], rows) + "\n")
    return pairs


def copy_table(source, out):
    copies = sorted((r for r in source.records if r.kind == "copy"), key=lambda r: r.bytes)
    if not copies:
        return
    out.append("### Device-to-device copy (bytes read + written)\n")
    out.append(table(["bytes", "median ms", "GB/s"],
                     [[size_label(r.bytes), fmt_ms(r.ms), fmt(r.gbs(), 1)] for r in copies]) + "\n")


# ---- plots ---------------------------------------------------------------------------------

def load_matplotlib():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        return None


def plot_throughput(plt, source, png_dir):
    sorts = [r for r in source.records if r.kind == "sort"]
    items = sorted({r.item for r in sorts}, key=item_order)
    if not items:
        return None
    fig, axes = plt.subplots(1, len(items), figsize=(4.5 * len(items), 4), squeeze=False)
    for ax, item in zip(axes[0], items):
        records = [r for r in sorts if r.item == item]
        dist = primary_distribution(records)
        for method in sorted({r.method for r in records}, key=method_order):
            points = sorted((r.n, r.mkeys()) for r in records
                            if r.method == method and r.dist == dist and r.mkeys())
            if not points:
                continue
            style = "--" if method.startswith("cub") else "-"
            ax.plot([p[0] for p in points], [p[1] for p in points], style, marker="o", label=method)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title("%s, %s" % (describe_item(item), dist))
        ax.set_xlabel("n")
        ax.set_ylabel("Mkeys/s (median)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize="small")
    fig.suptitle("%s — %s" % (source.label, source.device))
    fig.tight_layout()
    path = os.path.join(png_dir, "%s_throughput.png" % source.stem)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_distributions(plt, source, found, png_dir):
    paths = []
    for item, n, dists, records in found:
        methods = sorted({r.method for r in records}, key=method_order)
        fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(dists) * max(1, len(methods)) / 2), 4))
        width = 0.8 / len(methods)
        for i, method in enumerate(methods):
            times = {r.dist: r.ms for r in records if r.method == method}
            xs = [d + (i - (len(methods) - 1) / 2) * width for d in range(len(dists))]
            ax.bar(xs, [times.get(d, 0) for d in dists], width, label=method,
                   hatch="//" if method.startswith("cub") else None)
        ax.set_xticks(range(len(dists)))
        ax.set_xticklabels(dists, rotation=30, ha="right")
        ax.set_ylabel("median ms")
        ax.set_title("%s, n = %s — %s" % (describe_item(item), size_label(n), source.device))
        ax.legend(fontsize="small")
        ax.grid(True, axis="y", alpha=0.3)
        fig.tight_layout()
        path = os.path.join(png_dir, "%s_distributions_%s_n%s.png"
                            % (source.stem, item.replace(":", "-"), size_label(n).replace("^", "")))
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    return paths


def plot_blocks(plt, source, pairs, png_dir):
    if not pairs:
        return None
    methods = sorted({p[3] for p in pairs})
    labels = ["%s\n%s\n%s" % (item, tile, shape) + ("\n" + method if len(methods) > 1 else "")
              for item, tile, shape, method, _, _ in pairs]
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(pairs)), 4))
    xs = range(len(pairs))
    ax.bar([x - 0.2 for x in xs], [p[4].mkeys() or 0 for p in pairs], 0.4,
           label="gpusort block sort" if len(methods) > 1 else "gpusort %s" % methods[0])
    ax.bar([x + 0.2 for x in xs], [(p[5].mkeys() or 0) if p[5] else 0 for p in pairs], 0.4,
           label="CUB BlockMergeSort", hatch="//")
    ax.set_xticks(list(xs))
    ax.set_xticklabels(labels, fontsize="small")
    ax.set_ylabel("Mkeys/s (median)")
    ax.set_title("tile-local sort — %s" % source.device)
    ax.legend(fontsize="small")
    ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    path = os.path.join(png_dir, "%s_block_sort.png" % source.stem)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# ---- the report ----------------------------------------------------------------------------

def context_line(source):
    c = source.context
    parts = ["Device: **%s**" % source.device]
    if c.get("gpu_memory_GiB"):
        parts[0] += " (%s GiB)" % c["gpu_memory_GiB"]
    cuda = fmt_version(c.get("cuda_runtime"), "cuda")
    cub = fmt_version(c.get("cub"), "cub")
    if cuda:
        parts.append("CUDA %s" % cuda)
    if cub:
        parts.append("CUB %s" % cub)
    parts.append("measured %s" % c.get("date", "(no date)"))
    if c.get("host_name"):
        parts.append("host `%s`" % c["host_name"])
    return " · ".join(parts)


def report(sources, png_dir, md_dir, plt):
    out = ["# gpusort benchmark report\n",
           "Generated %s by `scripts/bench_report.py` from %d file(s). Times are medians over "
           "repetitions, in ms; **vs CUB** columns are time ÷ the CUB sort's time from the same "
           "file (below 1: faster than CUB); GB/s = 2 · n · sizeof(item) / time.\n"
           % (datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"), len(sources))]
    copies = copy_lookup(sources)
    written = []
    for source in sources:
        out.append("## %s (`%s`)\n" % (source.label, os.path.basename(source.path)))
        out.append(context_line(source) + "\n")
        if not source.records:
            out.append("No benchmark figures in this file.\n")
        sort_tables(source, copies, out)
        found = distribution_tables(source, out)
        automatic_table(source, out)
        pairs = block_table(source, out)
        copy_table(source, out)
        if source.errors:
            out.append("### Errors reported by the benchmarks\n")
            out.append("\n".join("- `%s`: %s" % e for e in source.errors) + "\n")
        if source.unknown:
            out.append("Not tabulated (names this script does not parse): %s\n"
                       % ", ".join("`%s`" % r.name for r in source.unknown))
        if plt is not None and png_dir is not None:
            paths = [plot_throughput(plt, source, png_dir)]
            paths += plot_distributions(plt, source, found, png_dir)
            paths.append(plot_blocks(plt, source, pairs, png_dir))
            paths = [p for p in paths if p]
            for p in paths:
                out.append("![%s](%s)\n" % (os.path.basename(p), os.path.relpath(p, md_dir)))
            written += paths
    return "\n".join(out), written


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Markdown tables (and PNG plots, with matplotlib) from gpusort's "
                    "Google Benchmark JSON files.")
    parser.add_argument("json", nargs="+", help="benchmark JSON files (--benchmark_out)")
    parser.add_argument("-o", "--output", help="write the markdown here (default: stdout)")
    parser.add_argument("--png-dir", help="where the PNGs go (default: the output file's "
                                          "directory, else the current directory)")
    parser.add_argument("--no-png", action="store_true", help="tables only")
    args = parser.parse_args(argv)

    sources = load(args.json)
    if not sources:
        print("bench_report: no readable benchmark file", file=sys.stderr)
        return 1
    md_dir = os.path.dirname(os.path.abspath(args.output)) if args.output else os.getcwd()
    png_dir = plt = None
    if not args.no_png:
        plt = load_matplotlib()
        if plt is None:
            print("bench_report: matplotlib not found, tables only (no PNGs)", file=sys.stderr)
        else:
            png_dir = args.png_dir or md_dir
            os.makedirs(png_dir, exist_ok=True)
    text, written = report(sources, png_dir, md_dir, plt)
    if args.output:
        os.makedirs(md_dir, exist_ok=True)
        with open(args.output, "w") as f:
            f.write(text + "\n")
        print("bench_report: wrote %s" % args.output, file=sys.stderr)
    else:
        sys.stdout.write(text + "\n")
    for path in written:
        print("bench_report: wrote %s" % path, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
