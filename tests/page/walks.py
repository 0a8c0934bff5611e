"""The page of a rule that walks, in a real headless Chromium (tests/page.rs runs this).

argv[1] is a manifest: the browser, its driver, and per rule the page and the cases, each
a call in the wire form with the answer the reference evaluator gives. Each call is put in
the form through the page's own `rulecPage.fill` — the inputs in their fields, each
sequence as rows — and what the page shows is held to the answer: the record line it
prints, or the sentence of its refusal (an element's field refused marked in its row). Then a row is added and one taken away with the
page's buttons, and the call the form reads has one element more, then one fewer. It
writes one JSON report to argv[2]. The network is off throughout.
"""

import json
import os
import re
import sys

os.environ["SE_OFFLINE"] = "true"

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

SHOWN = """
rulecPage.fill(arguments[0]);
return [document.querySelector('.record-line').textContent, document.querySelector('.status').textContent,
        document.querySelectorAll('table.rows td[aria-invalid="true"]').length];
"""

LENGTHS = "const c = rulecPage.readCall(); return arguments[0].map(s => c[s].length);"


def click(driver, button):
    """A reader's click, on the button scrolled into view in its pane."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    button.click()


def main():
    with open(sys.argv[1]) as f:
        manifest = json.load(f)
    options = webdriver.ChromeOptions()
    options.binary_location = manifest["chromium"]
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--window-size=1600,1000"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(manifest["chromedriver"]), options=options)
    report = []
    try:
        for rule in manifest["rules"]:
            driver.get("file://" + rule["page"])
            entry = {"page": rule["page"], "cases": 0, "failures": [], "rows": None}
            for case in rule["cases"]:
                record, status, marked = driver.execute_script(SHOWN, case["in"])
                want = case["answer"]
                if "refused" in want:
                    # A field of an element refused is marked in its row; nothing else is.
                    of_element = re.match(r"^.+\[\d+\]\.", want["error"]) is not None
                    ok = record == "" and want["error"] in status and marked == (1 if of_element else 0)
                else:
                    ok = record != "" and json.loads(record)["observed"] == want["observed"]
                if not ok:
                    entry["failures"].append({"in": case["in"], "record": record, "status": status, "want": want})
                entry["cases"] += 1
            # The buttons: one row more at the end of the first sequence, then one fewer.
            names = rule["sequences"]
            before = driver.execute_script(LENGTHS, names)
            first = driver.find_element("css selector", "fieldset.sequence")
            click(driver, first.find_element("css selector", ".add-row"))
            added = driver.execute_script(LENGTHS, names)
            click(driver, first.find_elements("css selector", "tbody .remove-row")[-1])
            removed = driver.execute_script(LENGTHS, names)
            entry["rows"] = [before, added, removed]
            report.append(entry)
    finally:
        driver.quit()
    with open(sys.argv[2], "w") as f:
        json.dump({"rules": report}, f)


main()
