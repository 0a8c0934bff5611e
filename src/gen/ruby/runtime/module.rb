# frozen_string_literal: true

# The fixed text of every generated Ruby module, as one Ruby file that `ruby -wc` checks as
# it stands (tests/gen_ruby.rs). The Ruby backend copies the sections a rule needs, into the
# rule's module: each starts at a `  # rulec: NAME` line and runs to the next one. What comes
# before the first section is for this file alone.

module Module
  # rulec: errors
  # The caller broke the contract: fix the call site. what is the sentence, value the value
  # refused (nil when the refusal is not about one); printed, the sentence and the value.
  class RuleInputError < ArgumentError
    attr_reader :what, :value

    def initialize(what, value = nil)
      super(value.nil? ? what : "#{what}: #{value}")
      @what = what
      @value = value
    end
  end

  # The rule contradicted itself (two rows the checker could not prove apart both matched):
  # fix the rule, not the call.
  class RuleContradictionError < RuntimeError
    attr_reader :what

    def initialize(what)
      super(what)
      @what = what
    end
  end

  # A row that matched: the table's name and the row's number as written (from 1).
  Fired = Struct.new(:table, :row)

  # A JSON number that is not a plain integer, as its text (a JSON reader's decimal_class):
  # the door works out exactly whether it is a whole number.
  class WireNumber
    attr_reader :text

    def initialize(text)
      @text = text
    end
  end

  # rulec: refuse
  # The door's refusal of a value that is not of its kind: missing first.
  def self._refuse(x, missing, kind)
    raise RuleInputError.new(missing) if x.nil?

    raise RuleInputError.new(kind, x.inspect)
  end

  # rulec: check_int
  # The door of a whole number (a date as its day number): missing, its kind (a Float or a
  # WireNumber whose value is whole is the Integer it equals), its range.
  def self._check_int(x, lo, hi, missing, kind, out)
    raise RuleInputError.new(missing) if x.nil?

    if x.is_a?(WireNumber)
      x = _whole(x.text, kind, out)
    elsif x.is_a?(Float) && x.finite? && x == x.floor
      x = x.to_i
    end
    raise RuleInputError.new(kind, x.inspect) unless x.is_a?(Integer)
    raise RuleInputError.new(out, x.inspect) if !lo.nil? && (x < lo || x > hi)

    x
  end

  # The Integer a JSON number's text is, worked out from its digits and its exponent.
  def self._whole(text, kind, out)
    m = /\A(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?\z/.match(text)
    raise RuleInputError.new(kind, text) if m.nil?

    digits = (m[2] + (m[3] || "")).sub(/\A0+/, "")
    exp = (m[4] || "0").to_i - (m[3] || "").length
    return 0 if digits.empty?

    while exp.negative? && digits.end_with?("0")
      digits = digits[0...-1]
      exp += 1
    end
    raise RuleInputError.new(kind, text) if exp.negative?
    raise RuleInputError.new(out, text) if digits.length + exp > 20

    n = (digits + ("0" * exp)).to_i
    m[1] == "-" ? -n : n
  end

  # rulec: walk
  # A sequence a walk reads: an Array of at most `most` elements.
  def self._sequence(x, missing, not_sequence, too_many, most)
    raise RuleInputError.new(missing) if x.nil?
    raise RuleInputError.new(not_sequence, x.inspect) unless x.is_a?(Array)
    raise RuleInputError.new(too_many) if x.length > most

    x
  end

  # Where an element is, as a refusal names it: `lines[2]`.
  def self._place(name, i)
    name + "[" + i.to_s + "]"
  end

  # rulec: wire_member
  # The member of an enum whose name the wire carries.
  def self._wire_member(all, x, missing, not_member)
    return x if x.is_a?(String) && all.include?(x)

    _refuse(x, missing, not_member)
  end

  # rulec: wire_day
  # The day number of a "YYYY-MM-DD" the wire carries.
  def self._wire_day(x, missing, not_date)
    days = x.is_a?(String) ? _days(x) : nil
    return days unless days.nil?

    _refuse(x, missing, not_date)
  end

  # rulec: days
  # The day number of exactly "YYYY-MM-DD", when the calendar has that day.
  def self._days(text)
    return nil unless /\A\d{4}-\d{2}-\d{2}\z/.match?(text)

    y = text[0, 4].to_i
    m = text[5, 2].to_i
    d = text[8, 2].to_i
    leap = (y % 4).zero? && (!(y % 100).zero? || (y % 400).zero?)
    days_in = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return nil unless m.between?(1, 12) && d.between?(1, days_in[m - 1])

    y -= 1 if m <= 2
    era = y.div(400)
    yoe = y - (era * 400)
    doy = ((153 * (m > 2 ? m - 3 : m + 9)) + 2).div(5) + d - 1
    doe = (yoe * 365) + yoe.div(4) - yoe.div(100) + doy
    (era * 146_097) + doe - 719_468
  end

  # rulec: date_type
  # A "YYYY-MM-DD" of a day the calendar has as its day number; ArgumentError otherwise.
  def self.date_from_wire(text)
    days = _days(text)
    raise ArgumentError, "#{text} is not a date" if days.nil?

    days
  end

  # A Date (or anything with a jd, the Julian day) as the day number the module takes.
  def self.date_of(day)
    day.jd - 2_440_588
  end

  # rulec: json_str
  # A JSON string as the records write it: quote, backslash and control characters escaped.
  def self._json_str(text)
    out = +'"'
    text.each_char do |c|
      out << case c
             when '"' then '\\"'
             when "\\" then "\\\\"
             when "\n" then "\\n"
             when "\r" then "\\r"
             when "\t" then "\\t"
             when "\b" then "\\b"
             when "\f" then "\\f"
             else c < " " ? format("\\u%04x", c.ord) : c
             end
    end
    out << '"'
  end

  # rulec: record
  # A fixtures record begun: its brace, and the tag when there is one (an empty or nil tag is none).
  def self._record_open(tag)
    s = +"{"
    s << "\"tag\":" << _json_str(tag) << "," unless tag.nil? || tag.empty?
    s
  end

  # A fixtures record ended: the rows that matched as the records write them, then its brackets.
  def self._record_close(s, trace)
    s << trace.map { |f| "{\"table\":#{_json_str(f.table)},\"row\":#{f.row}}" }.join(",") << "]}"
  end

  # rulec: date_str
  # A day number as "YYYY-MM-DD" (proleptic Gregorian), quoted for JSON.
  def self._date_str(days)
    z = days + 719_468
    era = z.div(146_097)
    doe = z - (era * 146_097)
    yoe = (doe - doe.div(1460) + doe.div(36_524) - doe.div(146_096)).div(365)
    doy = doe - ((365 * yoe) + yoe.div(4) - yoe.div(100))
    mp = ((5 * doy) + 2).div(153)
    d = doy - ((153 * mp) + 2).div(5) + 1
    m = mp < 10 ? mp + 3 : mp - 9
    y = yoe + (era * 400) + (m <= 2 ? 1 : 0)
    format('"%04d-%02d-%02d"', y, m, d)
  end

  # rulec: div_round_up
  # n / d rounded away from zero (d != 0).
  def self._div_round_up(n, d)
    n, d = -n, -d if d.negative?
    q, r = n.divmod(d)
    r.positive? && n.positive? ? q + 1 : q
  end

  # rulec: div_round_down
  # n / d rounded toward zero (d != 0).
  def self._div_round_down(n, d)
    n, d = -n, -d if d.negative?
    q, r = n.divmod(d)
    r.positive? && n.negative? ? q + 1 : q
  end

  # rulec: div_round_ceiling
  # n / d rounded toward +infinity (d != 0).
  def self._div_round_ceiling(n, d)
    n, d = -n, -d if d.negative?
    q, r = n.divmod(d)
    r.positive? ? q + 1 : q
  end

  # rulec: div_round_floor
  # n / d rounded toward -infinity (d != 0; the proof, E132, rules out a zero divisor).
  # Ruby's Integer#div is the floor; once d > 0, n % d is the remainder from zero up.
  def self._div_round_floor(n, d)
    n, d = -n, -d if d.negative?
    n.div(d)
  end

  # rulec: div_round_half_up
  # n / d rounded to the nearest, ties away from zero (d != 0).
  def self._div_round_half_up(n, d)
    n, d = -n, -d if d.negative?
    q, r = n.divmod(d)
    2 * r > d || (2 * r == d && n.positive?) ? q + 1 : q
  end

  # rulec: div_round_half_down
  # n / d rounded to the nearest, ties toward zero (d != 0).
  def self._div_round_half_down(n, d)
    n, d = -n, -d if d.negative?
    q, r = n.divmod(d)
    2 * r > d || (2 * r == d && n.negative?) ? q + 1 : q
  end

  # rulec: div_round_half_even
  # n / d rounded to the nearest, ties to the even multiple (d != 0).
  def self._div_round_half_even(n, d)
    n, d = -n, -d if d.negative?
    q, r = n.divmod(d)
    2 * r > d || (2 * r == d && q.odd?) ? q + 1 : q
  end

  # rulec: mod
  # The remainder from zero up: 0 <= r < |b| (b != 0).
  def self._mod(a, b)
    a % b.abs
  end

  # rulec: isqrt
  # The largest r with r * r <= x (x >= 0), by a binary search over whole numbers.
  def self._isqrt(x)
    lo = 0
    hi = [[x, 0].max, 3_037_000_499].min
    while lo < hi
      mid = lo + ((hi - lo + 1) / 2)
      if mid * mid <= x
        lo = mid
      else
        hi = mid - 1
      end
    end
    lo
  end

  # rulec: end
end
