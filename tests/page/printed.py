"""The page as a business reader meets it (tests/page.rs runs this), in headless Chromium.

argv[1] is a manifest: the pages to open and what to try on each; argv[2] the report.

- choose: values picked in selects first.
- typed: a field is given the number as the page prints numbers — separators between
  groups of three digits, the unit after it — and the answer is the one the plain digits
  give; a text that is not such a number is still refused by the field.
- words: the page, on the board and read as a document, says none of the words only the
  analysis uses.
- says: sentences the page has to show.
- wide: at 1,440 px wide, every table can be scrolled to its last column, and nothing in a
  card reaches past the card's edge.
"""

import json
import os
import sys
import tempfile

os.environ["SE_OFFLINE"] = "true"

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

ANSWER = """
const out = {};
for (const dd of document.querySelectorAll('.answer dd[data-wire]')) {
  out[dd.closest('.output').dataset.output] = [dd.dataset.wire, dd.textContent];
}
const errors = {};
for (const f of document.querySelectorAll('.field')) {
  const e = f.querySelector('.error');
  if (!e.hidden) { errors[f.dataset.input] = e.textContent; }
}
return {outputs: out, errors: errors};
"""

# Each table, and whether the nearest ancestor that clips it lets it scroll to its end.
TABLES = """
const out = [];
for (const t of document.querySelectorAll('table')) {
  const r = t.getBoundingClientRect();
  if (r.width === 0) { continue; }
  let clip = null;
  for (let a = t.parentElement; a; a = a.parentElement) {
    if (getComputedStyle(a).overflowX !== 'visible') { clip = a; break; }
  }
  const right = clip ? clip.getBoundingClientRect().right : window.innerWidth;
  let reaches = r.right <= right + 1;
  if (!reaches && clip && ['auto', 'scroll'].includes(getComputedStyle(clip).overflowX)) {
    clip.scrollLeft = clip.scrollWidth;
    const last = t.querySelector('tr').lastElementChild.getBoundingClientRect();
    reaches = last.right <= clip.getBoundingClientRect().right + 1;
    clip.scrollLeft = 0;
  }
  out.push({table: t.dataset.table || t.className, reaches: reaches});
}
return out;
"""

PAST_CARD = """
const out = [];
for (const card of document.querySelectorAll('.card')) {
  const edge = card.getBoundingClientRect().right;
  for (const el of card.querySelectorAll('header, header *')) {
    if (el.getBoundingClientRect().right > edge + 1) { out.push(card.dataset.decider + ': ' + el.className); }
  }
}
return out;
"""


# The button a reader presses, by its words.
PRESS = "Array.from(document.querySelectorAll('button')).find(b => b.textContent.trim() === '%s').click();"


def type_into(driver, field_id, text):
    el = driver.find_element("id", field_id)
    el.send_keys(Keys.CONTROL, "a")
    el.send_keys(text if text != "" else Keys.DELETE)
    return driver.execute_script(ANSWER)


def main():
    manifest = json.load(open(sys.argv[1], encoding="utf-8"))
    options = webdriver.ChromeOptions()
    options.binary_location = manifest["chromium"]
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--lang=en-US",
                 "--window-size=1440,900", "--user-data-dir=" + tempfile.mkdtemp(prefix="rulec-page-")]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(manifest["chromedriver"]), options=options)
    report = []
    try:
        for page in manifest["pages"]:
            entry = {"page": page["page"], "failures": []}
            report.append(entry)
            driver.get("file://" + page["page"])
            for choice in page.get("choose", []):
                Select(driver.find_element("id", choice["id"])).select_by_value(choice["value"])
            for t in page.get("typed", []):
                plain = type_into(driver, t["id"], t["plain"])
                if plain["errors"]:
                    entry["failures"].append(f"{t['plain']!r} is refused: {plain['errors']}")
                for text in t["accepted"]:
                    got = type_into(driver, t["id"], text)
                    if got != plain:
                        entry["failures"].append(f"{text!r} gives {got}, {t['plain']!r} gives {plain}")
                for text in t["refused"]:
                    got = type_into(driver, t["id"], text)
                    if t["input"] not in got["errors"]:
                        entry["failures"].append(f"{text!r} is taken: {got}")
                type_into(driver, t["id"], t["plain"])
            # What the page prints, typed back: the same answer.
            entry["printed"] = []
            for t in page.get("printed_back", []):
                shown = type_into(driver, t["id"], t["plain"])["outputs"][t["output"]]
                entry["printed"].append(shown[1])
                got = type_into(driver, t["id"], shown[1])
                if got["errors"]:
                    entry["failures"].append(f"the page prints {shown[1]!r}, and refuses it typed back: {got['errors']}")
                type_into(driver, t["id"], t["plain"])
            board = driver.execute_script("return document.body.innerText;")
            driver.execute_script(PRESS % "Read as a document")
            doc = driver.execute_script("return document.body.innerText;")
            driver.execute_script(PRESS % "Back to the board")
            for word in page.get("words", []):
                for where, text in (("board", board), ("document", doc)):
                    if word in text:
                        entry["failures"].append(f"the {where} says {word!r}")
            for sentence in page.get("says", []):
                if sentence not in doc:
                    entry["failures"].append(f"the document does not say {sentence!r}")
            if page.get("wide"):
                cards = driver.find_elements("css selector", ".card")
                entry["tables"] = 0
                for card in [None] + cards:
                    if card is not None:
                        card.click()
                    for t in driver.execute_script(TABLES):
                        entry["tables"] += 1
                        if not t["reaches"]:
                            entry["failures"].append(f"table {t['table']} is cut: its last column cannot be scrolled to")
                entry["failures"].extend(f"{x} reaches past its card" for x in driver.execute_script(PAST_CARD))
    finally:
        driver.quit()
    json.dump(report, open(sys.argv[2], "w", encoding="utf-8"), indent=1)


if __name__ == "__main__":
    main()
