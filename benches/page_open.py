"""How long a rule's page takes to open in headless Chromium (docs/benchmarks.md).

    rulec doc tests/corpus/parcel_rate.rule --format html > /tmp/parcel_rate.html
    python3 benches/page_open.py /tmp/parcel_rate.html

Opens the page N times in one browser session, the network off, and reports the median
time from navigation to the load event (the module script, which builds the board and
answers the first case, runs before it) — beside the same page with its scripts taken out,
which is the document alone: the ratio is what the board costs. Not a test: nothing is
asserted.
"""

import os
import re
import statistics
import sys
import tempfile

os.environ["SE_OFFLINE"] = "true"

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

RUNS = 20
FLAGS = "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking " \
    "--disable-component-update --disable-sync --window-size=1600,1000"


def main():
    page = os.path.abspath(sys.argv[1])
    html = open(page, encoding="utf-8").read()
    plain = os.path.join(tempfile.mkdtemp(), "document.html")
    with open(plain, "w", encoding="utf-8") as f:
        f.write(re.sub(r"<script type=\"module\">.*?</script>", "", html, flags=re.S))
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in FLAGS.split():
        o.add_argument(a)
    o.add_argument("--user-data-dir=" + tempfile.mkdtemp())
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    d.execute_cdp_cmd("Network.enable", {})
    d.execute_cdp_cmd("Network.emulateNetworkConditions",
                      {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    timing = "const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd - n.startTime;"
    results = {}
    try:
        for name, path in (("page", page), ("document only", plain)):
            times = []
            for _ in range(RUNS + 1):
                d.get("file://" + path)
                times.append(d.execute_script(timing))
            if name == "page":
                assert d.execute_script("return document.body.dataset.ready === 'true';"), "the board started"
            results[name] = statistics.median(times[1:])
    finally:
        d.quit()
    print(f"{os.path.basename(page)}: {os.path.getsize(page)} bytes ({os.path.getsize(page) / 1024:.1f} KiB)")
    for name, ms in results.items():
        print(f"  {name:14} median of {RUNS} opens: {ms:7.1f} ms")
    print(f"  the board costs x{results['page'] / results['document only']:.2f} the document alone")


if __name__ == "__main__":
    main()
