"""One live site for a whole test module, under the fixture name ``live_site``.

    from tests.games.module_site import live_site, module_live_site, shared_live_site  # noqa: F401  (fixtures)

For modules whose tests each make their own guests and tables: one daphne and worker
start for the module instead of one a test (tests.games.ui_server.module_live_site),
each test's browser contexts closed after it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.games.ui_server import LiveSite, module_live_site, shared_live_site  # noqa: F401  (fixtures)


@pytest.fixture
def live_site(module_live_site: LiveSite) -> Iterator[LiveSite]:  # noqa: F811
    yield module_live_site
