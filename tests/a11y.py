"""axe-core in the browser tests: WCAG 2.2 A/AA violations of a Playwright page.

axe-core is a pinned node package of the suite (package.json, package-lock.json;
`make venv-test` runs `npm ci`), never served to visitors. It enters a browser
context as an init script (Playwright's addScriptToEvaluateOnNewDocument), which
the pages' Content-Security-Policy does not block, so pages are checked under their
real policy.

    from tests.a11y import install_axe, violations, describe

    install_axe(context)                           # before the context opens pages
    page.goto(url)
    found = violations(page)                       # [{id, impact, help, helpUrl, nodes}]
    assert not serious(found), describe(found, url)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import require
from tests.servers import ROOT

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.0, 2.1 and 2.2 at levels A and AA (axe's tags; 2.2 has AA rules only).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
IMPACTS = ("minor", "moderate", "serious", "critical")

_RUN = """async ({tags, exclude}) => {
  const result = await window.axe.run({exclude: exclude.map((s) => [s])}, {
    runOnly: {type: "tag", values: tags}, resultTypes: ["violations"],
  });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({target: n.target.map(String), summary: n.failureSummary || "",
                                html: n.html.slice(0, 200)})),
  }));
}"""


def axe_path() -> Path:
    require(AXE.exists(), f"{AXE} is missing: run `make node-deps` (npm ci)")
    return AXE


def install_axe(context: Any) -> None:
    """Make axe-core available in every page the context opens from now on."""
    context.add_init_script(path=str(axe_path()))


def violations(page: Any, tags: list[str] | None = None, exclude: list[str] | None = None) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (WCAG 2.2 A/AA by default)."""
    page.wait_for_function("() => window.axe !== undefined")
    return page.evaluate(_RUN, {"tags": tags or TAGS, "exclude": exclude or []})


def at_least(found: list[dict[str, Any]], impact: str) -> list[dict[str, Any]]:
    """The violations of ``impact`` or worse."""
    floor = IMPACTS.index(impact)
    return [v for v in found if IMPACTS.index(v["impact"] or "minor") >= floor]


def describe(found: list[dict[str, Any]], where: str = "") -> str:
    """A readable report: one block per rule (id, impact, help, link), the failing nodes' selectors."""
    lines = [f"{len(found)} axe-core violation(s){' on ' + where if where else ''}:"]
    for v in found:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']} <{v['helpUrl']}>")
        for node in v["nodes"][:8]:
            summary = " ".join(node["summary"].split())[:300]
            lines.append(f"    {' '.join(node['target'])}: {summary}")
        if len(v["nodes"]) > 8:
            lines.append(f"    ... and {len(v['nodes']) - 8} more")
    return "\n".join(lines)


# -- one live site (daphne + worker) for a whole test module ------------------------------------

def start_live_site(env: dict[str, str]) -> tuple[Any, Any]:
    """A daphne and a worker (bots, clocks) on ``env``: (server, worker process). Stop both
    with stop_live_site()."""
    import subprocess
    import sys

    from tests.servers import ARTIFACTS, DaphneServer

    logs = ARTIFACTS / "server-logs"
    logs.mkdir(parents=True, exist_ok=True)
    server = DaphneServer(env).start()
    with open(logs / f"worker-a11y-{server.port}.log", "wb") as log:
        worker = subprocess.Popen([sys.executable, "manage.py", "worker"], cwd=ROOT, env=env, stdout=log,
                                  stderr=subprocess.STDOUT, start_new_session=True)
    return server, worker


def stop_live_site(server: Any, worker: Any) -> None:
    import subprocess

    worker.terminate()
    try:
        worker.wait(10)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait(10)
    server.stop()
