module rulec/singlecoupon

go 1.18
