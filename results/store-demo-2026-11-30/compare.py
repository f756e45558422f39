# Compares what two servers answer: classes, every leaderboard, the run pages (submitted_at masked).
import json, re, sys, urllib.request
a, b = sys.argv[1], sys.argv[2]
def get(base, path):
    with urllib.request.urlopen(base + path) as r:
        return r.read().decode()
def norm_json(t):
    j = json.loads(t)
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k != "submitted_at"}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x
    return strip(j)
def norm_html(t):
    return re.sub(r"<th>submitted</th><td>[^<]*</td>", "<th>submitted</th><td>*</td>", t)
paths_json = ["/api/v1/classes", "/api/v1/benchmarks", "/api/v1/results?limit=1000"]
benches = [x["id"] for x in json.loads(get(a, "/api/v1/benchmarks"))]
paths_json += ["/api/v1/leaderboard?benchmark=" + x for x in benches]
runs = [r["id"] for r in json.loads(get(a, "/api/v1/results?limit=1000"))["runs"]]
paths_html = ["/", "/runs"] + ["/leaderboard?benchmark=" + x for x in benches] + ["/runs/%d" % i for i in runs]
paths_html += ["/compare?a=%d&b=%d" % (runs[-1], i) for i in runs]
bad = 0
for p in paths_json:
    if norm_json(get(a, p)) != norm_json(get(b, p)):
        print("DIFFERS", p); bad += 1
for p in paths_html:
    if norm_html(get(a, p)) != norm_html(get(b, p)):
        print("DIFFERS", p); bad += 1
print(f"{len(paths_json)} API answers and {len(paths_html)} pages compared, {bad} differ")
sys.exit(1 if bad else 0)
