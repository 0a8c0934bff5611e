// Package checkout prices an order: the coupon's discount comes from the rule
// single_coupon, the shipping from the rule parcel_rate — the same parcel_rate the Python
// quote service calls. Neither is written here; both are generated from ../../rules.
package checkout

import (
	"fmt"

	"rulec/parcelrate"
	"rulec/singlecoupon"
)

// Coupon is a coupon presented at checkout, as the API receives it.
type Coupon struct {
	Kind      string // "percent", "fixed" or "free_ship"
	RatePct   int64  // for a percent coupon
	FaceJPY   int64  // for a fixed coupon
	Duplicate bool   // already used on this order
}

// CouponDiscount is what the coupon takes off, in yen tax included, after alreadyOff.
func CouponDiscount(subtotalJPY, alreadyOffJPY int64, c Coupon) (int64, error) {
	kind, ok := singlecoupon.ParseCouponKind(c.Kind)
	if !ok {
		return 0, fmt.Errorf("unknown coupon kind %q", c.Kind)
	}
	out, err := singlecoupon.SingleCoupon(singlecoupon.Input{
		Subtotal: singlecoupon.JPYInclTax(subtotalJPY),
		Applied:  singlecoupon.JPYInclTax(alreadyOffJPY),
		Kind:     kind,
		Rate:     singlecoupon.Rate(c.RatePct),
		Face:     singlecoupon.JPYInclTax(c.FaceJPY),
		Dup:      c.Duplicate,
	})
	if err != nil {
		return 0, err
	}
	if !out.Ok {
		return 0, nil
	}
	return int64(out.Raw), nil
}

// Shipping is the fee for one parcel, in whole US dollars.
func Shipping(weightLb, girthIn int64, dest string, signature bool) (int64, error) {
	zone, ok := parcelrate.ParseZone(dest)
	if !ok {
		return 0, fmt.Errorf("unknown destination %q", dest)
	}
	fee, err := parcelrate.ParcelRate(parcelrate.Input{
		Weight:    parcelrate.Pounds(weightLb),
		Girth:     parcelrate.Inches(girthIn),
		Dest:      zone,
		Signature: signature,
	})
	return int64(fee), err
}
