module rulec/memberdiscount

go 1.18

require rulec/tiers v0.0.0

replace rulec/tiers => ../tiers
