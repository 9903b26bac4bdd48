#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`make check-report`: renders `fputune report` in headless Chromium and checks it as a reader would see it.

Writes the report of the given sweeps, opens it in Chromium (Debian `chromium`) through the DevTools
protocol on a pipe (standard library only), and checks, from the rendered page:
  - no console message of level error or warning, no uncaught exception, no request other than the page;
  - every algorithm of the sweeps (a kernel that needs the FPU with section points) has a section, with a
    trade-off chart per variant and a threshold chart per machine where the sweep has a no-FPU path;
  - every chart is an SVG whose series (gnuplot's <g><title>) are the ones the page declares, each
    drawn with a non-empty bounding box and named in the legend, and the trade-off charts have the budget, bound line, band,
    p50 line, throughput, measured points, limit and the limit's interval (a band);
  - with several machines, the page names the machine that binds each limit;
  - the page prints (PDF).
Saves a screenshot of the top and of the first algorithm's charts (for the README), and the PDF.
Exit 0 when every check passes, 1 when one fails, 2 when it cannot run (no Chromium).
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


# The tables whose right edge lies past the page's and that no sideways-scrolling box holds (their class names).
TABLE_PROBE = """JSON.stringify([...document.querySelectorAll('table')].filter(t => {
  const box = t.closest('.scroll');
  return !box && t.getBoundingClientRect().right > document.documentElement.clientWidth + 1;
}).map(t => t.className || 'table'))"""


def fail(msg):
    print("check-report: FAIL: " + msg)
    return 1


class Chromium:
    """Chromium driven through --remote-debugging-pipe (fd 3: commands in, fd 4: replies out, NUL-separated)."""

    def __init__(self, binary, profile):
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()
        # Move the child's ends out of the way of 3 and 4 before the child dup2s them there.
        child_in, child_out = os.dup(to_chrome_r), os.dup(from_chrome_w)
        hi_in, hi_out = 100, 101
        os.dup2(child_in, hi_in)
        os.dup2(child_out, hi_out)
        for fd in (to_chrome_r, from_chrome_w, child_in, child_out):
            os.close(fd)

        def in_child():
            os.dup2(hi_in, 3)
            os.dup2(hi_out, 4)

        args = [binary, "--headless", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-extensions", "--hide-scrollbars", "--mute-audio",
                "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"]
        if os.geteuid() == 0:
            args.insert(2, "--no-sandbox")
        self.proc = subprocess.Popen(args, preexec_fn=in_child, pass_fds=(3, 4, hi_in, hi_out),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(hi_in)
        os.close(hi_out)
        self.w, self.r = to_chrome_w, from_chrome_r
        self.buf = b""
        self.next_id = 0
        self.events = []

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self.r, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe (did it start?)")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            m = self._read_message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, timeout=60):
        deadline = time.time() + timeout
        for m in self.events:
            if m.get("method") == method:
                return m
        while True:
            m = self._read_message(deadline)
            self.events.append(m)
            if m.get("method") == method:
                return m

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# What the page must show, from the sweeps themselves (not from the page).
def expected(sweeps):
    out = []
    for path in sweeps:
        with open(path) as f:
            j = json.load(f)
        kernels = {k["name"]: k for k in j["kernels"]}
        with_points = {p["kernel"] for p in j["sections"]}
        algs = {}
        for name in with_points:
            k = kernels[name]
            if k.get("needs_fpu", True):
                algs.setdefault(k["algorithm"], set()).add(name)
        scalar_thresholds = {kernels[p["kernel"]]["algorithm"] for p in j.get("thresholds", [])
                             if not kernels[p["kernel"]].get("needs_fpu", True)}
        out.append({"path": path, "algorithms": algs, "threshold_algorithms": scalar_thresholds,
                    "machine": j["cpu"].get("brand", "")})
    return out


PAGE_PROBE = r"""
(() => {
  const figs = [...document.querySelectorAll('figure.chart')].map(f => {
    const svg = f.querySelector('svg.chart');
    // Blank titles are the legend's padding slots (keyentry), not series.
    const groups = svg ? [...svg.querySelectorAll('g[id*="gnuplot_plot_"]')]
        .filter(g => { const t = g.querySelector('title'); return t && t.textContent.trim().length; }) : [];
    return {
      id: f.id, kind: svg ? svg.getAttribute('data-chart') : null,
      section: f.closest('section.algorithm') ? f.closest('section.algorithm').dataset.algorithm : null,
      caption: f.querySelector('figcaption') ? f.querySelector('figcaption').innerText : '',
      declared: (f.dataset.series || '').split('|').filter(s => s.length),
      series: groups.map(g => { const t = g.querySelector('title'); return t ? t.textContent : ''; }),
      drawn: groups.map(g => { const b = g.getBBox(); return b.width > 0 || b.height > 0; }),
      // gnuplot writes each series' legend entry inside its group; an entry that did not fit is left out.
      keyed: groups.map(g => { const t = g.querySelector('title').textContent;
                               return [...g.querySelectorAll('text')].some(x => x.textContent.trim() === t.trim()); }),
      width: svg ? svg.getBoundingClientRect().width : 0,
      height: svg ? svg.getBoundingClientRect().height : 0,
    };
  });
  const sections = [...document.querySelectorAll('section.algorithm')].map(s => s.dataset.algorithm);
  const urls = [...document.querySelectorAll('[src],[href],link,script,iframe,object,embed')]
      .map(e => e.getAttribute('src') || e.getAttribute('href') || e.tagName)
      .filter(u => !(u && u.startsWith('#')));
  return JSON.stringify({figs, sections, urls, text: document.body.innerText, title: document.title,
                         height: document.documentElement.scrollHeight});
})()
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fputune", help="the fputune binary (writes the report of the sweeps)")
    ap.add_argument("--html", help="check this report instead (e.g. the one `make run` wrote from the sweeps)")
    ap.add_argument("--out", required=True, help="folder for report.html, the screenshots and report.pdf")
    ap.add_argument("--chromium", default=os.environ.get("CHROMIUM", "chromium"))
    ap.add_argument("--screenshot", help="also copy the chart screenshot here (e.g. docs/report.png)")
    ap.add_argument("--algorithm", default="", help="the algorithm whose charts the screenshot shows (default: the first)")
    ap.add_argument("--workload", action="append", default=[], help="passed on to fputune report (repeatable)")
    ap.add_argument("sweeps", nargs="+")
    a = ap.parse_args()
    binary = shutil.which(a.chromium)
    if not binary:
        print(f"check-report: {a.chromium} not found; install it (Debian: apt-get install chromium)")
        return 2
    if not a.fputune and not a.html:
        ap.error("give --fputune (to write the report) or --html (a report already written)")
    os.makedirs(a.out, exist_ok=True)
    if a.html:
        html = os.path.abspath(a.html)
        print(f"check-report: checking {html} against {' '.join(a.sweeps)}")
    else:
        html = os.path.abspath(os.path.join(a.out, "report.html"))
        cmd = [a.fputune, "report", "--from", *a.sweeps, "--budget", "30us", "--min-freq", "1GHz", "-o", html]
        for w in a.workload:
            cmd += ["--workload", w]
        print("check-report: " + " ".join(cmd))
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            return fail(f"fputune report exited {r.returncode}: {r.stderr.strip()}")
        print("check-report: " + r.stdout.strip().splitlines()[0])
    want = expected(a.sweeps)
    many = len(a.sweeps) > 1

    profile = tempfile.mkdtemp(prefix="fputune-chromium-")
    chrome = Chromium(binary, profile)
    errors = []
    try:
        target = chrome.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = chrome.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            chrome.call(domain + ".enable", session=session)
        chrome.call("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False},
                    session=session)
        url = "file://" + html
        chrome.call("Page.navigate", {"url": url}, session=session)
        chrome.wait_event("Page.loadEventFired", timeout=120)
        page = json.loads(chrome.call("Runtime.evaluate", {"expression": PAGE_PROBE, "returnByValue": True}, session=session)["result"]["value"])
        # A table wider than the page must sit in a box that scrolls sideways, or its last columns are cut off.
        cut = json.loads(chrome.call("Runtime.evaluate", {"expression": TABLE_PROBE, "returnByValue": True},
                                     session=session)["result"]["value"])
        shots = {}
        # The top of the page (summary), and the first algorithm's charts (README).
        charts = f"section.algorithm[data-algorithm=\"{a.algorithm}\"]" if a.algorithm else "section.algorithm"
        for name, selector in (("top", "body"), ("machines", "#machines"), ("charts", charts)):
            box = json.loads(chrome.call("Runtime.evaluate", {"expression":
                f"JSON.stringify(document.querySelector({json.dumps(selector)}).getBoundingClientRect())", "returnByValue": True},
                session=session)["result"]["value"])
            clip = {"x": 0, "y": box["y"], "width": 1280,
                    "height": min(box["height"], {"top": 1400, "machines": 1400, "charts": 3000}[name]),
                    "scale": 0.6 if name == "charts" else 1}
            png = chrome.call("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True},
                              session=session)["data"]
            path = os.path.join(a.out, f"report-{name}.png")
            with open(path, "wb") as f:
                f.write(base64.b64decode(png))
            shots[name] = path
        chrome.call("Emulation.setEmulatedMedia", {"media": "print"}, session=session)
        pdf = base64.b64decode(chrome.call("Page.printToPDF", {"printBackground": False}, session=session, timeout=180)["data"])
        with open(os.path.join(a.out, "report.pdf"), "wb") as f:
            f.write(pdf)
        # Drain what is left, then collect the messages and requests.
        time.sleep(0.5)
        chrome.call("Runtime.evaluate", {"expression": "1"}, session=session)
        for m in chrome.events:
            meth, p = m.get("method"), m.get("params", {})
            if meth == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
                errors.append(f"console {p['type']}: " + " ".join(str(x.get("value", x.get("description", ""))) for x in p.get("args", [])))
            elif meth == "Runtime.exceptionThrown":
                errors.append("exception: " + p.get("exceptionDetails", {}).get("text", "?"))
            elif meth == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
                errors.append(f"log {p['entry']['level']}: {p['entry'].get('text', '')} {p['entry'].get('url', '')}")
            elif meth == "Network.requestWillBeSent" and p.get("request", {}).get("url") not in (url,):
                errors.append("request: " + p["request"]["url"])
    finally:
        chrome.close()
        shutil.rmtree(profile, ignore_errors=True)

    problems = list(errors)
    for t in cut:
        problems.append(f"table '{t}' runs past the page's right edge outside a scrolling box: its last columns are cut")
    figs = page["figs"]
    if page["urls"]:
        problems.append(f"the page references something outside itself: {page['urls'][:5]}")
    for f in figs:
        if f["kind"] is None:
            problems.append(f"{f['id']}: no SVG chart")
            continue
        if f["series"] != f["declared"]:
            problems.append(f"{f['id']} ({f['kind']}, {f['section']}): series drawn {f['series']} != declared {f['declared']}")
        for s, d in zip(f["series"], f["drawn"]):
            if not d:
                problems.append(f"{f['id']} ({f['section']}): series '{s}' has nothing drawn")
        for s, k in zip(f["series"], f["keyed"]):
            if not k:
                problems.append(f"{f['id']} ({f['section']}): series '{s}' has no legend entry (the legend ran out of room)")
        if f["width"] < 300 or f["height"] < 150:
            problems.append(f"{f['id']}: rendered {f['width']}x{f['height']} px, too small to read")
        if f["kind"] == "tradeoff":
            for needle in ("budget", "line (bound)", "band (95 %)", "p50 line", "throughput", "measured p50", "limit",
                           "interval"):
                if not any(needle in s for s in f["series"]):
                    problems.append(f"{f['id']} ({f['section']}): trade-off chart without a '{needle}' series")
        if f["kind"] == "threshold":
            if not any("(no FPU)" in s for s in f["series"]) or not any("dirty" in s for s in f["series"]):
                problems.append(f"{f['id']} ({f['section']}): threshold chart without a no-FPU and a SIMD path")
    fpu = [f for f in figs if f["kind"] == "fpu"]
    if len(fpu) != 1:
        problems.append(f"{len(fpu)} FPU save/restore charts (want 1)")
    else:
        for w in range(len(want)):
            tag = f"[{w + 1}] " if many else ""
            if not any(s.startswith(tag) and s.endswith("save") for s in fpu[0]["series"]):
                problems.append(f"the FPU chart has no save bars for {tag or 'the machine'}")
    for i, w in enumerate(want):
        for alg, kernels in sorted(w["algorithms"].items()):
            if alg not in page["sections"]:
                problems.append(f"{w['path']}: no section for {alg}")
                continue
            in_section = [f for f in figs if f["section"] == alg]
            tradeoff_captions = " ".join(f["caption"] for f in in_section if f["kind"] == "tradeoff")
            for k in sorted(kernels):
                if k not in tradeoff_captions:
                    problems.append(f"{alg}: no trade-off chart for {k}")
            if alg in w["threshold_algorithms"]:
                tag = f"[{i + 1}]" if many else ""
                if not any(f["kind"] == "threshold" and tag in f["caption"] for f in in_section):
                    problems.append(f"{alg}: no threshold chart for machine {tag or w['machine']}")
    if many:
        for alg in sorted(set().union(*[set(w["algorithms"]) for w in want])):
            captions = " ".join(f["caption"] for f in figs if f["section"] == alg and f["kind"] == "tradeoff")
            if "(binds)" not in captions:
                problems.append(f"{alg}: no chart names the machine that binds its limits")
        if "bound by" not in page["text"]:
            problems.append("the summary does not say which machine binds each limit")
    if len(pdf) < 10000 or not pdf.startswith(b"%PDF"):
        problems.append(f"printing gave {len(pdf)} bytes, not a PDF")

    kinds = {}
    for f in figs:
        kinds[f["kind"]] = kinds.get(f["kind"], 0) + 1
    series = sum(len(f["series"]) for f in figs)
    print(f"check-report: {len(page['sections'])} algorithm sections, charts {kinds}, {series} series drawn, "
          f"page {page['height']} px tall, PDF {len(pdf) // 1024} KiB; console errors/warnings and requests: {len(errors)}")
    print(f"check-report: screenshots {shots['top']}, {shots['machines']}, {shots['charts']}")
    if a.screenshot:
        shutil.copyfile(shots["charts"], a.screenshot)
        print(f"check-report: copied {shots['charts']} to {a.screenshot}")
    for p in problems[:40]:
        print("check-report: FAIL: " + p)
    if problems:
        print(f"check-report: {len(problems)} problem(s)")
        return 1
    print("check-report: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
