module rulec/tiers

go 1.18
