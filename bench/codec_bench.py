#!/usr/bin/env python3
"""Micro-benchmark of the JSON <-> record codec (standard library only).

    PYTHONPATH=src python3 bench/codec_bench.py [--repeat 7]

For the three bundled programs and the PAYROLL sample, prints microseconds per
``codec.encode_inputs`` and per ``codec.decode_outputs`` call, with the arguments a ``tools/call``
hands over (the bundled tools' presentation step has already turned numbers into Decimal).
Figures are the best of several timeit repeats; quote ratios, the machine is noisy.
"""

from __future__ import annotations

import argparse
import os
import sys
import timeit
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "src"))

from cobol_mcp.cobol.linkage.frozen import replace  # noqa: E402
from cobol_mcp.cobol.linkage.program import parse_program  # noqa: E402
from cobol_mcp.cobol.records import codec  # noqa: E402

PROGRAMS = os.path.join(ROOT, "src", "cobol_mcp", "programs")
SAMPLES = os.path.join(ROOT, "tests", "cobol", "samples")

CASES = [
    (
        "add",
        os.path.join(PROGRAMS, "add.cob"),
        {"a": Decimal("12345678901234567890123.45678901"), "b": Decimal("-2.2")},
        {"total": "12345678901234567890121.25678901"},  # decimal text: 31 digits
    ),
    (
        "format-currency",
        os.path.join(PROGRAMS, "format-currency.cob"),
        {"amount": Decimal("1234.56")},
        {"formatted": "$1,234.56"},
    ),
    (
        "validate-date",
        os.path.join(PROGRAMS, "validate-date.cob"),
        {"date_text": "20240229"},
        {"valid_flag": "Y", "reason": "", "weekday": "Thursday"},
    ),
    (
        "PAYROLL (sample)",
        os.path.join(SAMPLES, "PAYROLL.CBL"),
        {
            "emp_id": 123456,
            "emp_name": {"emp_last": "Hopper", "emp_first": "Grace"},
            "hours_worked": Decimal("42.5"),
            "rate": Decimal("25.00"),
            "deduction": [
                {"ded_code": "TX", "ded_amount": 100},
                {"ded_code": "HI", "ded_amount": Decimal("20.5")},
                {"ded_code": "", "ded_amount": 0},
            ],
        },
        {
            "gross_pay": Decimal("1093.75"),
            "net_pay": Decimal("973.25"),
            "net_pay_text": "$973.25",
            "pay_status": "00",
            "pay_message": "",
        },
    ),
]


def output_buffers(spec, arguments: dict, outputs: dict) -> list[bytes]:
    """Buffers as the program hands them back: inputs as sent, outputs holding ``outputs``."""
    sent = codec.encode_inputs(spec, arguments)
    outs = [r for r in spec.records if r.direction != "in"]
    mirror = replace(spec, records=tuple(replace(r, direction="in", field=as_argument(r.field)) for r in outs))
    written = dict(zip((r.key for r in outs), codec.encode_inputs(mirror, outputs), strict=True))
    return [written.get(r.key, data) for r, data in zip(spec.records, sent, strict=True)]


def as_argument(f):
    """The item (and what is in it) as an argument, so encode_inputs writes the outputs' values."""
    kids = tuple(as_argument(c) for c in f.children)
    return replace(f, children=kids, direction="in" if f.direction in ("out", "inout") else f.direction)


def best_us(fn, repeat: int) -> float:
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat, number)) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="timeit repeats (best is reported)")
    args = parser.parse_args()
    print(f"{'program':<20} {'encode us':>10} {'decode us':>10} {'total us':>10}")
    for name, path, arguments, outputs in CASES:
        spec = parse_program(path)
        buffers = output_buffers(spec, arguments, outputs)
        decoded = codec.decode_outputs(spec, buffers)
        assert decoded == outputs, (name, decoded)
        encode = best_us(lambda spec=spec, arguments=arguments: codec.encode_inputs(spec, arguments), args.repeat)
        decode = best_us(lambda spec=spec, buffers=buffers: codec.decode_outputs(spec, buffers), args.repeat)
        print(f"{name:<20} {encode:>10.2f} {decode:>10.2f} {encode + decode:>10.2f}")


if __name__ == "__main__":
    main()
