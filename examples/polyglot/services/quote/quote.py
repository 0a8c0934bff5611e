"""The shipping quote service: what one parcel costs.

The price is not written here. It is the rule rules/parcel_rate.rule, generated into the
module parcel_rate (by make into generated/python, by Bazel into bazel-bin); this file only
turns a request into the rule's inputs.
"""

from parcel_rate import Zone, parcel_rate


def quote(weight_lb: int, girth_in: int, dest: str, signature: bool) -> int:
    """The fee in whole US dollars. A destination the rule does not know is refused here;
    a weight or girth outside the rule's ranges is refused by the rule (a ValueError)."""
    try:
        zone = Zone(dest)
    except ValueError:
        raise ValueError(f"unknown destination {dest!r}") from None
    return int(parcel_rate(weight=weight_lb, girth=girth_in, dest=zone, signature=signature))
