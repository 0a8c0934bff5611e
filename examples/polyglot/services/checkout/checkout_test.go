package checkout

import (
	"errors"
	"testing"

	"rulec/parcelrate"
)

// Answers worked out from the tables of rules/single_coupon.rule and rules/parcel_rate.rule.
func TestCouponDiscount(t *testing.T) {
	cases := []struct {
		subtotal, off int64
		coupon        Coupon
		want          int64
	}{
		{20000, 5000, Coupon{Kind: "percent", RatePct: 7}, 1050}, // 7% of the 15000 left
		{1500, 1000, Coupon{Kind: "fixed", FaceJPY: 800}, 500},   // no more than what is left
		{999, 0, Coupon{Kind: "fixed", FaceJPY: 800}, 0},         // under 1000 JPY: no coupon
		{5000, 0, Coupon{Kind: "percent", RatePct: 10, Duplicate: true}, 0},
		{1999, 0, Coupon{Kind: "percent", RatePct: 15}, 299}, // 299.85 rounded down
	}
	for _, c := range cases {
		got, err := CouponDiscount(c.subtotal, c.off, c.coupon)
		if err != nil || got != c.want {
			t.Errorf("CouponDiscount(%d, %d, %+v) = %d, %v; want %d", c.subtotal, c.off, c.coupon, got, err, c.want)
		}
	}
}

func TestShippingIsTheRuleThePythonServiceCalls(t *testing.T) {
	if got, err := Shipping(20, 50, "overseas", false); err != nil || got != 36 {
		t.Errorf("Shipping(20lb, 50in, overseas) = %d, %v; want 36", got, err)
	}
	if got, err := Shipping(30, 70, "canada", true); err != nil || got != 30 {
		t.Errorf("Shipping(30lb, 70in, canada, signature) = %d, %v; want 30", got, err)
	}
}

func TestRefusals(t *testing.T) {
	_, err := Shipping(0, 40, "canada", false)
	var refused *parcelrate.RuleInputError
	if !errors.As(err, &refused) {
		t.Errorf("a 0lb parcel: want a *parcelrate.RuleInputError, got %v", err)
	}
	if _, err := CouponDiscount(1000, 2000, Coupon{Kind: "fixed"}); err == nil {
		t.Errorf("more already off than the subtotal: want the rule's refusal")
	}
	if _, err := Shipping(5, 40, "mars", false); err == nil {
		t.Errorf("an unknown destination: want an error")
	}
}
