module example.com/polyglot/checkout

go 1.18

require (
	rulec/parcelrate v0.0.0
	rulec/singlecoupon v0.0.0
)

// The generated packages: make writes them to ../../generated/go, and the Bazel test lays
// the ones it generated out at the same place.
replace rulec/parcelrate => ../../generated/go/parcelrate

replace rulec/singlecoupon => ../../generated/go/singlecoupon
