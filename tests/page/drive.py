"""Drive the page of every rule in a real headless Chromium (tests/page.rs runs this).

It reads a manifest (argv[1]) that tests/page.rs writes: per rule, the page `rulec gen`
wrote, its graph (`rulec graph`) and the cases to type, each with the line the reference
evaluator expects (the records of vectors/<alias>.expected.jsonl, or a refusal). It fills
the form the way a reader does — typing into the text and date fields, choosing in the
selects — reads the answer, the lit rows and any sentence by a field back from the page,
and holds them to the expected line. It writes one JSON report to argv[2]; tests/page.rs
asserts on it. One browser session serves every rule. The network is off throughout.

Nothing is downloaded: the browser is /usr/bin/chromium and the driver /usr/bin/chromedriver
(Debian's chromium and chromium-driver); SE_OFFLINE keeps Selenium from looking for others.
"""

import json
import os
import sys
import tempfile
import time

os.environ["SE_OFFLINE"] = "true"

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--lang=en-US",
    "--window-size=1600,1000",
]

# Everything the page shows about the case, read in one round trip.
READ = """
const out = {outputs: {}, shown: {}, lit: [], errors: {}, status: '', record: ''};
for (const dd of document.querySelectorAll('.answer dd[data-wire]')) {
  const name = dd.closest('.output').dataset.output;
  out.outputs[name] = dd.dataset.wire;
  out.shown[name] = dd.textContent;
}
for (const tr of document.querySelectorAll('.card table.decision tr.fired')) {
  out.lit.push([tr.closest('table').dataset.table, Number(tr.dataset.row)]);
}
for (const f of document.querySelectorAll('.field')) {
  const e = f.querySelector('.error');
  if (!e.hidden) { out.errors[f.dataset.input] = e.textContent; }
}
out.status = document.querySelector('.status').textContent;
out.record = document.querySelector('.record-line').textContent;
return out;
"""

CARDS = """
return Array.from(document.querySelectorAll('.card')).map(c => {
  const r = c.getBoundingClientRect();
  return {decider: c.dataset.decider, left: r.left + c.closest('.canvas').scrollLeft, right: r.right + c.closest('.canvas').scrollLeft};
});
"""


def columns(graph):
    """The column of each decider, from the graph alone: 1 + the furthest decider it reads from."""
    decider_of = {}
    order = []
    for node in graph["nodes"]:
        for by in node.get("by", []):
            d = by["kind"] + ":" + by["name"]
            decider_of[node["name"]] = d
            if d not in order:
                order.append(d)
    col = {}
    changed = True
    while changed:
        changed = False
        for d in order:
            ups = [decider_of[e["from"]] for e in graph["edges"]
                   if decider_of.get(e["to"]) == d and e["from"] in decider_of]
            c = 1 + max([col.get(u, 0) for u in ups], default=0)
            if col.get(d) != c:
                col[d] = c
                changed = True
    return col


def fill(driver, fields, case):
    for name, spec in fields.items():
        el = driver.find_element("id", spec["id"])
        want = case["fill"][name]
        if spec["control"] == "select":
            Select(el).select_by_value(want)
        elif spec["control"] == "date":
            if el.get_attribute("value") == want:
                continue
            if want == "":
                el.clear()
            else:
                # The field remembers the part last typed in: go back to the month, then type.
                y, m, d = want.split("-")
                el.send_keys(Keys.LEFT, Keys.LEFT, Keys.LEFT, m + d + y)
        else:
            if el.get_attribute("value") == want:
                continue
            el.send_keys(Keys.CONTROL, "a")
            el.send_keys(want if want != "" else Keys.DELETE)


def interact(driver):
    """The keyboard moves between cards and the dock follows; both borders move."""
    wrong = []
    first = driver.find_element("css selector", ".card.selected")
    dock = lambda: driver.execute_script("return document.querySelector('.dock-body [data-part]')?.dataset.decider")
    before = first.get_attribute("data-decider")
    if dock() != before:
        wrong.append(f"the dock shows {dock()}, not the selected {before}")
    first.send_keys(Keys.ARROW_RIGHT)
    now = driver.switch_to.active_element
    after = now.get_attribute("data-decider")
    if after == before or "selected" not in now.get_attribute("class") or dock() != after:
        wrong.append(f"ArrowRight from {before} selected {after}, the dock shows {dock()}")
    now.send_keys(Keys.ARROW_LEFT)
    if driver.switch_to.active_element.get_attribute("data-decider") != before:
        wrong.append("ArrowLeft does not come back")
    for selector, key, prop in ((".split-v", Keys.ARROW_RIGHT, "--pane"), (".split-h", Keys.ARROW_UP, "--dock")):
        split = driver.find_element("css selector", selector)
        read = f"return document.querySelector('.board').style.getPropertyValue('{prop}')"
        was = driver.execute_script(read)
        split.send_keys(key)
        keyed = driver.execute_script(read)
        if keyed == was:
            wrong.append(f"{selector} does not move with the arrow keys ({prop} stays {was})")
        (webdriver.ActionChains(driver).move_to_element(split).click_and_hold()
         .move_by_offset(-40 if prop == "--pane" else 0, -40 if prop == "--dock" else 0).release().perform())
        if driver.execute_script(read) == keyed:
            wrong.append(f"{selector} does not drag ({prop} stays {keyed})")
    return wrong


def check(case, seen):
    """What is wrong with what the page shows, against the expected line (empty: nothing)."""
    exp = json.loads(case["expected"])
    wrong = []
    if "refused" in exp:
        sentence = exp["error"]
        field = case.get("field")
        if field is not None:
            if seen["errors"].get(field) != sentence:
                wrong.append(f"field {field} shows {seen['errors'].get(field)!r}, not {sentence!r}")
        elif sentence not in seen["status"]:
            wrong.append(f"status {seen['status']!r} does not say {sentence!r}")
        if seen["lit"]:
            wrong.append(f"rows lit on a refused case: {seen['lit']}")
        if seen["record"]:
            wrong.append("a record on a refused case")
        return wrong
    if seen["errors"]:
        wrong.append(f"fields refused: {seen['errors']}")
    if seen["record"] != case["expected"]:
        wrong.append(f"record {seen['record']!r}, expected {case['expected']!r}")
    for name, value in exp["observed"].items():
        got = seen["outputs"].get(name)
        if not got or json.loads(got) != value:
            wrong.append(f"output {name} shows {got!r}, expected {json.dumps(value)}")
        if not seen["shown"].get(name) or seen["shown"][name] == "\u2014":
            wrong.append(f"output {name} shows nothing")
    lit = sorted(tuple(x) for x in seen["lit"])
    want = sorted((t["table"], t["row"]) for t in exp["trace"])
    if lit != want:
        wrong.append(f"rows lit {lit}, expected {want}")
    return wrong


def main():
    manifest = json.load(open(sys.argv[1], encoding="utf-8"))
    report = {"rules": []}
    options = webdriver.ChromeOptions()
    options.binary_location = manifest["chromium"]
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="rulec-page-")
    options.add_argument("--user-data-dir=" + profile)
    started = time.monotonic()
    driver = webdriver.Chrome(service=Service(manifest["chromedriver"]), options=options)
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd(
            "Network.emulateNetworkConditions",
            {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
        )
        for rule in manifest["rules"]:
            entry = {"alias": rule["alias"], "cases": 0, "refusals_shown": 0, "failures": []}
            report["rules"].append(entry)
            driver.get("file://" + rule["page"])
            ready = driver.execute_script("return document.body.dataset.ready === 'true';")
            entry["ready"] = bool(ready)
            entry["load_ms"] = driver.execute_script(
                "const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd - n.startTime;"
            )
            entry["fetched"] = driver.execute_script(
                "return performance.getEntriesByType('resource').map(r => r.name);"
            )
            entry["external"] = driver.execute_script(
                "return Array.from(document.querySelectorAll('[src],link[href]')).map(e => e.outerHTML);"
            )
            if not ready:
                entry["failures"].append("the page did not start: " + json.dumps(driver.get_log("browser")))
                continue
            # The board is rulec graph laid out: columns by distance from the inputs.
            col = columns(json.load(open(rule["graph"], encoding="utf-8")))
            cards = driver.execute_script(CARDS)
            entry["cards"] = len(cards)
            if sorted(c["decider"] for c in cards) != sorted(col):
                entry["failures"].append(f"cards {sorted(c['decider'] for c in cards)}, deciders {sorted(col)}")
            for a in cards:
                for b in cards:
                    ca, cb = col.get(a["decider"]), col.get(b["decider"])
                    if ca is None or cb is None:
                        continue
                    if ca < cb and not a["right"] < b["left"]:
                        entry["failures"].append(f"{a['decider']} (column {ca}) is not left of {b['decider']} ({cb})")
                    if ca == cb and abs(a["left"] - b["left"]) > 1:
                        entry["failures"].append(f"{a['decider']} and {b['decider']} share column {ca} but not its left edge")
            if rule.get("screenshot"):
                driver.save_screenshot(rule["screenshot"])
                entry["failures"].extend(interact(driver))
            for case in rule["cases"]:
                fill(driver, rule["fields"], case)
                seen = driver.execute_script(READ)
                wrong = check(case, seen)
                entry["cases"] += 1
                if "refused" in json.loads(case["expected"]) and not wrong:
                    entry["refusals_shown"] += 1
                if wrong:
                    entry["failures"].append({"in": case["fill"], "wrong": wrong})
    finally:
        driver.quit()
    report["seconds"] = round(time.monotonic() - started, 1)
    json.dump(report, open(sys.argv[2], "w", encoding="utf-8"), indent=1)


if __name__ == "__main__":
    main()
