"""DDS's side of the whole-process comparison: the double-dummy table of
every deal of a PBN file by endplay's ``calc_dd_table``, one thread, one
line per deal on stdout (DDS's 5 x 4 table: strains S H D C NT, declarers
N E S W).

    /usr/bin/time python benchmarks/dds_table.py FILE
    /usr/bin/time whist-solve table FILE --ranking up --json

It reads only the ``Deal`` tags (52-card deals), so that DDS's process
pays for nothing of whist-solve's.
"""
import re
import sys

import endplay._dds as dds
from endplay.dds import calc_dd_table
from endplay.types import Deal


def main(path: str) -> int:
    dds.SetMaxThreads(1)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        for m in re.finditer(r'\[Deal "([^"]+)"\]', text):
            print(calc_dd_table(Deal(m.group(1))).to_list(), flush=True)
    except BrokenPipeError:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
