# The runner `rulec test` drives: one vectors line in, one record (or refusal) out, for
# every line. It reads the JSON, then hands the object to the module's own door, which
# checks it in the reference's order; the runner checks nothing itself.
#
# The Python backend writes it beside each module with `rulec_rule` and `rulec_wire`
# replaced by the module's and the door's names, and each `# rulec-copy:` line by the
# section of script.py it names.

import decimal
import json
import sys
from typing import Any

import rulec_rule as _rule


# rulec-copy: script.py depth


# rulec-copy: script.py read


def _call(line: str) -> str:
    try:
        return _rule.rulec_wire(_call_of(line))
    except _rule.RuleInputError as e:
        return _refusal("input", e.what)
    except _rule.RuleContradictionError as e:
        return _refusal("contradiction", e.what)


# rulec-copy: script.py refusal


def main() -> None:
    out: list[str] = []
    for raw in sys.stdin.buffer:
        # A line that is not UTF-8, or whose JSON holds a lone surrogate, is a line the door
        # refuses like any other that is not an object: the runner reads on.
        line = raw.decode("utf-8", errors="replace").strip()
        if line == "":
            continue
        out.append(_call(line) + "\n")
    sys.stdout.buffer.write("".join(out).encode("utf-8", errors="surrogatepass"))


if __name__ == "__main__":
    main()
