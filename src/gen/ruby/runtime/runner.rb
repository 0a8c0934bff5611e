# frozen_string_literal: true

# The runner `rulec test` drives: one vectors line in, one record (or refusal) out, for every
# line. It reads the JSON (a number with a point or an exponent as its text, which the
# module's door reads exactly) and hands the object to the module's own door, which checks it
# in the reference's order; the runner checks nothing itself.
#
# The Ruby backend writes it beside each module with `rulec_rule`, `RulecRule` and
# `rulec_wire` replaced by the module's file, the module and the door.

require "json"
require "strscan"
require_relative "rulec_rule"

# The deepest nesting serde_json reads: the reference takes a line nested deeper for no JSON.
MAX_DEPTH = 127

# Whether the line holds none of what Ruby's JSON reads and the reference does not: a
# comment, an escape JSON has not, half of a surrogate pair, nesting deeper than MAX_DEPTH.
def strict?(line)
  s = StringScanner.new(line)
  depth = 0
  until s.eos?
    next if s.skip(%r{[^"\[\]{}/]+})

    case s.getch
    when "[", "{"
      depth += 1
      return false if depth > MAX_DEPTH
    when "]", "}"
      depth -= 1
    when "/"
      return false
    when '"'
      return false unless strict_string?(s)
    end
  end
  true
end

# The rest of a string after its opening quote, up to and with its closing one: its
# escapes are JSON's, and a surrogate escape is one half of a pair.
def strict_string?(s)
  high = false
  loop do
    return false if s.skip(/[^"\\]+/) && high

    unit = s.scan(/\\u[0-9a-fA-F]{4}/)&.slice(2, 4)&.hex
    if unit
      low = unit.between?(0xDC00, 0xDFFF)
      return false if high != low

      high = unit.between?(0xD800, 0xDBFF)
      next
    end
    return false if high

    return true if s.skip(/"/)
    return false unless s.skip(%r{\\["\\/bfnrt]})
  end
end

def refusal(kind, what)
  JSON.generate({ "refused" => kind, "error" => what })
end

def answer(line)
  top = begin
    JSON.parse(line, decimal_class: RulecRule::WireNumber, max_nesting: MAX_DEPTH) if strict?(line)
  rescue JSON::ParserError, EncodingError
    nil
  end
  call = top.is_a?(Hash) && top.key?("in") ? top["in"] : top
  RulecRule.rulec_wire(call)
rescue RulecRule::RuleInputError => e
  refusal("input", e.what)
rescue RulecRule::RuleContradictionError => e
  refusal("contradiction", e.what)
end

out = []
$stdin.binmode
$stdin.each_line do |raw|
  line = raw.dup.force_encoding(Encoding::UTF_8)
  if line.valid_encoding?
    next if line.strip.empty?

    out << answer(line)
  else
    # Bytes that are not UTF-8 are not JSON either: refused like any such line.
    out << answer("")
  end
end
$stdout.write(out.map { |l| "#{l}\n" }.join)
