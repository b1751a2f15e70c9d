"""axe-core, as ``axe-playwright-python`` bundles it (run offline), on the page a browser test
has open: put into each document once however often it runs there (at each width, in each
colour scheme), and its violations as readable lines.
"""

from __future__ import annotations

from typing import Any


def axe(tab: Any, options: dict[str, Any]) -> dict[str, Any]:
    """What axe-core finds on the page open in ``tab``, running the rules ``options`` names.

    Every rule checks every element; only the violations name all the elements they were
    found on (``resultTypes``): a rule that passed is listed with one element, which spares
    axe-core finding a selector for every element of the page.
    """
    from axe_playwright_python.base import AXE_SCRIPT

    if not tab.evaluate("() => typeof window.axe === 'object'"):
        tab.evaluate(AXE_SCRIPT)
    response: dict[str, Any] = tab.evaluate(
        "(options) => axe.run(document, options)", {"resultTypes": ["violations"], **options}
    )
    return response


def violations(response: dict[str, Any]) -> list[str]:
    """Each violation as one readable line: the rule, then where and why."""
    return [
        f"{found['id']}: {node['target']} {node['failureSummary']}"
        for found in response["violations"]
        for node in found["nodes"]
    ]
