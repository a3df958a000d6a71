#!/usr/bin/env python3
"""coverage_probe.py — turns the coverage ledger (docs/coverage.md) into probe
translation units that compile only if every name marked implemented exists.

    coverage_probe.py LEDGER OUT_DIR [--root REPO_ROOT]
    coverage_probe.py LEDGER --write-counts

A ledger row is `| API | status | test, issue or reason | probe |` in a table
whose header row starts `| API | status |`. Status is `implemented`,
`planned` or `left out`. For an implemented row the third cell names the
test(s) that cover it (paths from REPO_ROOT, which must exist) and the
probe cell says how to find the name, in backquotes:

    `AscendC::Add`                      a namespace-scope name (function,
                                        class, template, variable, type):
                                        a using-declaration
    `AscendC::LocalTensor<float>.GetValue`
                                        a member of a class (overloads too):
                                        a using-declaration in a derived class
    `#TILING_KEY_IS`                    a macro: #ifndef ... #error
    `host AscendC::GetLayerNormMaxMinTmpSize`
                                        any of the above, on the host side
    `c_api asc_add`                     a C API name (c_api/asc_simd.h)

Writes OUT_DIR/kernel_probe.cc (kernel_operator.h, and c_api/asc_simd.h when
a C API name is implemented) and OUT_DIR/host_probe.cc (tiling/tiling_api.h,
acl/acl.h, the platform header). Each check is preceded by a #line directive
naming the ledger and the row's line, so a missing name is a compiler error
at `docs/coverage.md:<line>`. A malformed row is reported the same way here,
with exit status 1. Files are rewritten only when their text changes, so an
unchanged ledger does not recompile the probes.

The counts are checked too: each list's and each category's line "N names:
I implemented, P planned, L left out." and the Totals table must agree with
the rows, or the run fails naming the line and the right figures.
--write-counts rewrites them from the rows (after a row changes status).
"""
import argparse
import os
import re
import sys

STATUSES = ("implemented", "planned", "left out")
HEADER = re.compile(r"^\|\s*API\s*\|\s*status\s*\|")
INCLUDES = {
    "kernel": ['"kernel_operator.h"', '"lib/matmul_intf.h"'],
    "host": ['"tiling/tiling_api.h"', '"acl/acl.h"', '"tiling/platform/platform_ascendc.h"'],
}
QUALIFIED = re.compile(r"(::)?[A-Za-z_]\w*(::[A-Za-z_]\w*)*")
MEMBER = re.compile(r"(?P<cls>[A-Za-z_:][\w:<>, ]*)\.(?P<member>[A-Za-z_]\w*|operator\[\]|operator\(\))")
MACRO = re.compile(r"#(?P<name>[A-Za-z_]\w*)")


class LedgerError(Exception):
    pass


def cells(line):
    parts = [c.strip() for c in line.strip().split("|")]
    return parts[1:-1]


def parse_probe(text, where):
    """(side, check) for a probe cell; check is ('macro'|'member'|'name', ...)."""
    m = re.fullmatch(r"`([^`]+)`", text)
    if not m:
        raise LedgerError(f"{where}: an implemented row needs its probe in backquotes, found '{text}'")
    spec = m.group(1).strip()
    side = "kernel"
    for prefix in ("host ", "c_api "):
        if spec.startswith(prefix):
            side, spec = prefix.strip(), spec[len(prefix):].strip()
    if m := MACRO.fullmatch(spec):
        return side, ("macro", m.group("name"))
    if m := MEMBER.fullmatch(spec):
        return side, ("member", m.group("cls").strip(), m.group("member"))
    if QUALIFIED.fullmatch(spec):
        if side == "c_api" and "::" not in spec:
            spec = "::" + spec
        if "::" not in spec:
            raise LedgerError(f"{where}: probe '{spec}' needs its namespace (AscendC::{spec}, ::{spec})")
        return side, ("name", spec)
    raise LedgerError(f"{where}: probe '{spec}' is not a qualified name, Class.member or #MACRO")


def read_ledger(path, root):
    """The implemented rows: [(line number, api, side, check)]."""
    rows = []
    in_table = False
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for number, line in enumerate(lines, start=1):
        where = f"{path}:{number}"
        if HEADER.match(line):
            in_table = True
            continue
        if not line.startswith("|"):
            in_table = False
            continue
        if not in_table or re.fullmatch(r"\|[\s:|-]*", line):
            continue
        row = cells(line)
        if len(row) != 4:
            raise LedgerError(f"{where}: a row has 4 cells (API, status, test/issue/reason, probe), found {len(row)}")
        api, status, note, probe = row
        if status not in STATUSES:
            raise LedgerError(f"{where}: status '{status}' of {api} is not one of {', '.join(STATUSES)}")
        if not note:
            raise LedgerError(f"{where}: {api} ({status}) needs a test, an issue or a reason")
        if status != "implemented":
            continue
        for test in re.findall(r"`([^`]+)`", note) or [note]:
            if not os.path.exists(os.path.join(root, test)):
                raise LedgerError(f"{where}: the test '{test}' named for {api} does not exist under {root}")
        side, check = parse_probe(probe, where)
        rows.append((number, api, side, check))
    return rows


COUNT_LINE = re.compile(r"(?P<n>\d+) names: (?P<i>\d+) implemented, (?P<p>\d+) planned, (?P<l>\d+) left out\.$")
TOTALS_ROW = re.compile(r"^\| (?P<name>\[[^\]]+\]\([^)]*\)|all) \| \d+ \| \d+ \| \d+ \| \d+ \|$")


def status_counts(lines):
    """{scope: [implemented, planned, left out]} for "all", every list (its
    "## " title) and every category (its "### " line's number), from the
    rows under them."""
    counts = {"all": [0, 0, 0]}
    section = category = None
    for number, line in enumerate(lines, start=1):
        if line.startswith("## "):
            section, category = line[3:].strip(), None
        elif line.startswith("### "):
            category = number  # a category title may stand twice in a list
        elif line.startswith("|") and not HEADER.match(line) and not re.fullmatch(r"\|[\s:|-]*", line):
            row = cells(line)
            if len(row) == 4 and row[1] in STATUSES:
                for scope in ("all", section, category):
                    if scope is not None:
                        counts.setdefault(scope, [0, 0, 0])[STATUSES.index(row[1])] += 1
    return counts


def counted(lines):
    """The ledger with every count line and Totals row set from the rows,
    and [(line number, old line, new line)] for those that differ."""
    counts = status_counts(lines)
    figures = lambda c: (sum(c), *c)
    out, changed = [], []
    section = category = None
    for number, line in enumerate(lines, start=1):
        new = line
        if line.startswith("## "):
            section, category = line[3:].strip(), None
        elif line.startswith("### "):
            category = number
        elif m := COUNT_LINE.search(line):
            n, i, p, l = figures(counts.get(category or section, [0, 0, 0]))
            new = line[:m.start()] + f"{n} names: {i} implemented, {p} planned, {l} left out."
        elif m := TOTALS_ROW.match(line):
            name = m.group("name")
            scope = "all" if name == "all" else re.match(r"\[([^\]]+)\]", name).group(1)
            new = "| {} | {} | {} | {} | {} |".format(name, *figures(counts.get(scope, [0, 0, 0])))
        out.append(new)
        if new != line:
            changed.append((number, line, new))
    return out, changed


def check_lines(ledger, number, api, check):
    """The probe's lines for one row: a #line directive, then one check."""
    tag = f"ledger_row_{number}"
    out = [f'#line {number} "{ledger}"']
    kind = check[0]
    if kind == "macro":
        out[0:0] = [f"#ifndef {check[1]}"]
        out.append(f'#error "ledger row {number}: {api} is marked implemented but macro {check[1]} is not defined"')
        out.append("#endif")
    elif kind == "member":
        cls, member = check[1], check[2]
        out.append(f"struct {tag} : {cls} {{ using {cls}::{member}; }};")
    else:
        out.append(f"namespace {tag} {{ using {check[1]}; }}")
    return out


def probe_text(ledger, side, rows):
    includes = list(INCLUDES.get(side, []))
    if side == "kernel" and any(r[2] == "c_api" for r in rows):
        includes.append('"c_api/asc_simd.h"')
    text = [f"// Generated by tools/ledger/coverage_probe.py from {os.path.basename(ledger)}; do not edit.",
            f"// One check per {side}-side name the ledger marks implemented."]
    text += [f"#include {inc}" for inc in includes]
    for number, api, row_side, check in rows:
        if row_side == side or (side == "kernel" and row_side == "c_api"):
            text += check_lines(ledger, number, api, check)
    return "\n".join(text) + "\n"


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ledger")
    parser.add_argument("out_dir", nargs="?")
    parser.add_argument("--root", default=".", help="the repository root tests are named from")
    parser.add_argument("--write-counts", action="store_true", help="set the counts from the rows")
    args = parser.parse_args()
    ledger = os.path.abspath(args.ledger)
    with open(ledger, encoding="utf-8") as f:
        lines = f.read().splitlines()
    fixed, changed = counted(lines)
    if args.write_counts:
        with open(ledger, "w", encoding="utf-8") as f:
            f.write("\n".join(fixed) + "\n")
        print(f"coverage_probe: {len(changed)} count lines rewritten in {args.ledger}")
        return 0
    if args.out_dir is None:
        parser.error("OUT_DIR is needed unless --write-counts is given")
    try:
        rows = read_ledger(ledger, args.root)
        if changed:
            number, old, new = changed[0]
            raise LedgerError(f"{ledger}:{number}: the counts disagree with the rows: '{old}' should be "
                              f"'{new}' ({len(changed)} such lines; tools/ledger/coverage_probe.py "
                              f"--write-counts sets them)")
    except LedgerError as e:
        print(f"coverage_probe: {e}", file=sys.stderr)
        return 1
    os.makedirs(args.out_dir, exist_ok=True)
    for side in ("kernel", "host"):
        write_if_changed(os.path.join(args.out_dir, f"{side}_probe.cc"), probe_text(ledger, side, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
