# frozen_string_literal: true

# The runner of the helpers' unit vectors (vectors/_helpers.jsonl): every helper a module may
# carry, each case {"op":…,"a":"…","b":"…"} answered {"result":"…"}. The Ruby backend writes
# the arithmetic sections of module.rb in place of the line below that names them.

require "json"

module Helpers
  # rulec: helpers

  OPS = {
    "quot_floor" => :_div_round_floor, "quot_ceiling" => :_div_round_ceiling,
    "quot_down" => :_div_round_down, "quot_up" => :_div_round_up,
    "quot_half_up" => :_div_round_half_up, "quot_half_down" => :_div_round_half_down,
    "quot_half_even" => :_div_round_half_even, "mod" => :_mod
  }.freeze
end

out = []
$stdin.each_line do |line|
  next if line.strip.empty?

  c = JSON.parse(line)
  a = c["a"].to_i
  r = c["op"] == "isqrt" ? Helpers._isqrt(a) : Helpers.send(Helpers::OPS.fetch(c["op"]), a, c["b"].to_i)
  out << "{\"result\":\"#{r}\"}\n"
end
$stdout.write(out.join)
