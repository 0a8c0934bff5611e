"""The quote service against answers worked out from the tables of rules/parcel_rate.rule."""

import unittest

import quote
from parcel_rate import Zone, parcel_rate


class QuoteTest(unittest.TestCase):
    def test_base_rate_fuel_and_signature(self) -> None:
        # overseas, medium (20lb, 50in): 30 USD, fuel 20% of it rounded up (6), no signature
        self.assertEqual(quote.quote(20, 50, "overseas", False), 36)
        # canada, large (girth over 60in): 25 USD, fuel 10% rounded up (3), signature 2 USD
        self.assertEqual(quote.quote(30, 70, "canada", True), 30)
        # domestic, small at both edges (10lb, 60in): 8 USD, fuel 0.8 rounded up to 1
        self.assertEqual(quote.quote(10, 60, "domestic", False), 9)

    def test_the_generated_function_called_directly(self) -> None:
        self.assertEqual(parcel_rate(weight=11, girth=60, dest=Zone.CANADA, signature=False), 17)

    def test_refusals(self) -> None:
        with self.assertRaises(ValueError):
            quote.quote(0, 40, "canada", False)  # the rule takes 1lb..70lb
        with self.assertRaises(ValueError):
            quote.quote(5, 40, "mars", False)


if __name__ == "__main__":
    unittest.main()
