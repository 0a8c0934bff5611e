# The fixed text of every generated Python module, as one Python file that ruff and mypy
# check as it stands (tests/gen_python.rs). The Python backend copies the sections a rule
# needs: each starts at a `# rulec: NAME` line and runs to the next one. What comes before
# the first section is for this file alone.

from enum import Enum
from typing import Any, NamedTuple, NewType, NoReturn, Protocol, Sequence, TypeVar

Date = NewType("Date", int)  # declared by a module whose rule has a date

# rulec: builtins
# The builtins the functions call, under names of the module's own, so that an input
# called int or len cannot stand in their way.
_isinstance = isinstance
_type = type
_int = int
_float = float
_bool = bool
_str = str
_repr = repr
_min = min
_max = max
_ord = ord
_len = len
_dict = dict

# rulec: errors
class RuleInputError(ValueError):
    """The caller broke the contract: fix the call site.

    what is the sentence; value the repr() of what was refused (None when the refusal is
    not about one value). Printed, the error is the sentence and the value after it.
    """

    def __init__(self, what: str, value: str | None = None) -> None:
        super().__init__(what if value is None else what + ": " + value)
        self.what = what
        self.value = value


class RuleContradictionError(AssertionError):
    """The rule contradicted itself (two rows the checker could not prove apart both
    matched): fix the rule, not the call. value is always None.
    """

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what
        self.value: str | None = None


class Fired(NamedTuple):
    """A row that matched: the table's name and the row's number as written (from 1)."""

    table: str
    row: int


_Trace = Sequence[Fired]

# rulec: date_type
class _CalendarDay(Protocol):
    """A date of the language's own (datetime.date): what date_of reads."""

    def toordinal(self) -> int: ...


def date_of(day: _CalendarDay) -> Date:
    """A datetime.date as the day number the module takes (days since 1970-01-01)."""
    return Date(day.toordinal() - 719163)


def date_from_wire(text: str) -> Date:
    """A "YYYY-MM-DD" of a day the calendar has as its day number; ValueError otherwise."""
    days = _days(text)
    if days is None:
        raise ValueError(text + " is not a date")
    return Date(days)

# rulec: refuse
def _refuse(x: object, missing: str, kind: str) -> NoReturn:
    """The door's refusal of a value that is not of its kind: missing first."""
    if x is None:
        raise RuleInputError(missing)
    raise RuleInputError(kind, repr(x))

# rulec: check_int
def _check_int(x: object, lo: int | None, hi: int | None, missing: str, kind: str, out: str) -> int:
    """The door of a whole number (a date as its day number): missing, its kind (a float
    that is whole is the integer it equals), its range."""
    if x is None:
        raise RuleInputError(missing)
    if isinstance(x, float) and x.is_integer():
        x = int(x)
    if not isinstance(x, int) or isinstance(x, bool):
        raise RuleInputError(kind, repr(x))
    if lo is not None and hi is not None and not lo <= x <= hi:
        raise RuleInputError(out, repr(x))
    return x

# rulec: wire_member
_E = TypeVar("_E", bound=Enum)


def _wire_member(kind: type[_E], x: object, missing: str, not_member: str) -> _E:
    """The member of an enum whose name the wire carries."""
    if isinstance(x, str):
        for member in kind:
            if member.value == x:
                return member
    _refuse(x, missing, not_member)

# rulec: wire_day
def _wire_day(x: object, missing: str, not_date: str) -> int:
    """The day number of a "YYYY-MM-DD" the wire carries."""
    if isinstance(x, str):
        days = _days(x)
        if days is not None:
            return days
    _refuse(x, missing, not_date)

# rulec: days
def _days(text: str) -> int | None:
    """The day number of exactly "YYYY-MM-DD", when the calendar has that day."""
    if len(text) != 10 or text[4] != "-" or text[7] != "-":
        return None
    parts = (text[0:4], text[5:7], text[8:10])
    if not all(c in "0123456789" for part in parts for c in part):
        return None
    y, m, d = int(parts[0]), int(parts[1]), int(parts[2])
    leap = (y % 4 == 0 and y % 100 != 0) or y % 400 == 0
    days_in = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if not 1 <= m <= 12 or not 1 <= d <= days_in[m - 1]:
        return None
    y = y - 1 if m <= 2 else y
    era = y // 400  # y >= -1: the floor is the era
    yoe = y - era * 400
    doy = (153 * (m - 3 if m > 2 else m + 9) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468

# rulec: object
def _object(x: object, sentence: str) -> dict[str, Any]:
    """A call in the wire form is a JSON object."""
    if not isinstance(x, dict):
        raise RuleInputError(sentence)
    return x


def _get(call: dict[str, Any], key: str) -> Any:
    """The value under a key of the call, None when there is none: what the door holds."""
    return call.get(key)

# rulec: walk
_enumerate = enumerate
_list = list


def _sequence(x: object, missing: str, not_sequence: str, too_many: str, most: int) -> list[Any]:
    """A sequence a walk reads: a list of at most `most` elements."""
    if x is None:
        raise RuleInputError(missing)
    if not isinstance(x, list):
        raise RuleInputError(not_sequence, repr(x))
    if len(x) > most:
        raise RuleInputError(too_many)
    return x


_R = TypeVar("_R")


def _held(x: object, kind: type[_R], sentence: str) -> _R:
    """An element the function is given: a value of its record."""
    if not isinstance(x, kind):
        raise RuleInputError(sentence, repr(x))
    return x


def _place(name: str, i: int) -> str:
    """Where an element is, as a refusal names it: `lines[2]`."""
    return name + "[" + str(i) + "]"

# rulec: json_str
def _json_str(text: str) -> str:
    """A JSON string as the records write it: quote, backslash and control characters
    escaped, the rest as it is."""
    out = ['"']
    for c in text:
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c >= " ":
            out.append(c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif c == "\b":
            out.append("\\b")
        elif c == "\f":
            out.append("\\f")
        else:
            out.append(f"\\u{ord(c):04x}")
    out.append('"')
    return "".join(out)

# rulec: record
def _record_open(tag: str) -> list[str]:
    """A fixtures record begun: its brace, and the tag when there is one (an empty tag is none)."""
    if tag != "":
        return ["{", '"tag":' + _json_str(tag) + ","]
    return ["{"]


def _record_close(s: list[str], trace: _Trace) -> str:
    """A fixtures record ended: the rows that matched as the records write them, then its brackets."""
    s.append(",".join('{"table":' + _json_str(f.table) + ',"row":' + _str(_int(f.row)) + "}" for f in trace))
    s.append("]}")
    return "".join(s)


# rulec: date_str
def _date_str(days: int) -> str:
    """A day number as "YYYY-MM-DD" (proleptic Gregorian), quoted for JSON; // here divides
    by positive constants, where it is the floor."""
    z = int(days) + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    y = yoe + era * 400 + (1 if m <= 2 else 0)
    return f'"{y:04d}-{m:02d}-{d:02d}"'

# rulec: div_round_up
def _div_round_up(n: int, d: int) -> int:
    """n / d rounded away from zero (d != 0)."""
    if d < 0:
        n, d = -n, -d
    q, r = n // d, n % d
    return q + 1 if r > 0 and n > 0 else q

# rulec: div_round_down
def _div_round_down(n: int, d: int) -> int:
    """n / d rounded toward zero (d != 0)."""
    if d < 0:
        n, d = -n, -d
    q, r = n // d, n % d
    return q + 1 if r > 0 and n < 0 else q

# rulec: div_round_ceiling
def _div_round_ceiling(n: int, d: int) -> int:
    """n / d rounded toward +infinity (d != 0)."""
    if d < 0:
        n, d = -n, -d
    q, r = n // d, n % d  # d > 0: q is the floor, 0 <= r < d
    return q + 1 if r > 0 else q

# rulec: div_round_floor
def _div_round_floor(n: int, d: int) -> int:
    """n / d rounded toward -infinity (d != 0; the proof, E132, rules out a zero divisor)."""
    if d < 0:
        n, d = -n, -d
    return n // d  # d > 0: the floor

# rulec: div_round_half_up
def _div_round_half_up(n: int, d: int) -> int:
    """n / d rounded to the nearest, ties away from zero (d != 0)."""
    if d < 0:
        n, d = -n, -d
    q, r = n // d, n % d
    return q + 1 if 2 * r > d or (2 * r == d and n > 0) else q

# rulec: div_round_half_down
def _div_round_half_down(n: int, d: int) -> int:
    """n / d rounded to the nearest, ties toward zero (d != 0)."""
    if d < 0:
        n, d = -n, -d
    q, r = n // d, n % d
    return q + 1 if 2 * r > d or (2 * r == d and n < 0) else q

# rulec: div_round_half_even
def _div_round_half_even(n: int, d: int) -> int:
    """n / d rounded to the nearest, ties to the even multiple (d != 0)."""
    if d < 0:
        n, d = -n, -d
    q, r = n // d, n % d
    return q + 1 if 2 * r > d or (2 * r == d and q % 2 != 0) else q

# rulec: mod
def _mod(a: int, b: int) -> int:
    """The remainder from zero up: 0 <= r < |b| (b != 0)."""
    return a % (b if b > 0 else -b)

# rulec: isqrt
def _isqrt(x: int) -> int:
    """The largest r with r * r <= x (x >= 0), by a binary search over whole numbers."""
    lo, hi = 0, 3037000499
    if x < hi:
        hi = x if x > 0 else 0
    while lo < hi:
        mid = lo + (hi - lo + 1) // 2
        if mid * mid <= x:
            lo = mid
        else:
            hi = mid - 1
    return lo

