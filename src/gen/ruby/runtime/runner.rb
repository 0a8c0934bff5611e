# frozen_string_literal: true

# The runner `rulec test` drives: one vectors line in, one record (or refusal) out, for every
# line. It reads the JSON (a number with a point or an exponent as its text, which the
# module's door reads exactly) and hands the object to the module's own door, which checks it
# in the reference's order; the runner checks nothing itself.
#
# The Ruby backend writes it beside each module with `rulec_rule`, `RulecRule` and
# `rulec_wire` replaced by the module's file, the module and the door.

require "json"
require_relative "rulec_rule"

# serde_json's limit: a line whose arrays and objects nest deeper is not JSON to the reference
# (JSON.parse's max_nesting counts as it does; its default is 100).
MAX_DEPTH = 127

def refusal(kind, what)
  JSON.generate({ "refused" => kind, "error" => what })
end

def answer(line)
  top = begin
    JSON.parse(line, decimal_class: RulecRule::WireNumber, max_nesting: MAX_DEPTH)
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
