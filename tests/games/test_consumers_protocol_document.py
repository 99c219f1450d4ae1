"""docs/protocol.md is all an outside client author reads: it must name every
error code the server sends, every event kind and the details (`data`) each
carries, every field of an event, the limits and the time format."""

from __future__ import annotations

import ast
import pathlib
import re

from games.protocol import ERROR_MESSAGES, MAX_FRAME_BYTES, MAX_SOCKET_MESSAGE_BYTES

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text()
SERVICES = ROOT / "games" / "services"


def section(title: str) -> str:
    start = DOC.index(f"## {title}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start:end if end != -1 else None]


def recorded() -> dict[str, set[str]]:
    """Each kind of action the services record, with the keys of its payload."""
    kinds: dict[str, set[str]] = {}
    for path in SERVICES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_record" and len(node.args) > 1:
                kind = node.args[1]
                if isinstance(kind, ast.Constant):
                    keys = kinds.setdefault(kind.value, set())
                    for keyword in node.keywords:
                        if keyword.arg == "payload":
                            for dict_node in ast.walk(keyword.value):
                                if isinstance(dict_node, ast.Dict):
                                    keys.update(k.value for k in dict_node.keys if isinstance(k, ast.Constant))
    return kinds


def test_every_error_code_is_documented():
    codes = set(re.findall(r"^\| `([a-z_]+)` \|", section("Error codes"), re.MULTILINE))
    assert set(ERROR_MESSAGES) - codes == set()


def test_every_event_kind_and_its_data_are_documented():
    kinds = recorded()
    assert {"start", "join", "bots", "kick"} <= set(kinds)
    listed = section("Event kinds")
    for kind, keys in kinds.items():
        assert f"`{kind}`" in listed, kind
        if keys:
            row = re.search(rf"^\| `{kind}` \|(.*)$", listed, re.MULTILINE)
            assert row, f"the data of {kind} is not documented"
            for key in keys:
                assert f'"{key}"' in row.group(1), (kind, key)


def test_every_field_of_an_event_is_documented():
    from games.services.snapshots import _event

    source = ast.parse((SERVICES / "snapshots.py").read_text())
    function = next(n for n in ast.walk(source) if isinstance(n, ast.FunctionDef) and n.name == _event.__name__)
    fields = {n.value for n in ast.walk(function) if isinstance(n, ast.Constant) and isinstance(n.value, str)
              and n.value in ("v", "kind", "seat", "at", "move", "data")}
    assert fields == {"v", "kind", "seat", "at", "move", "data"}
    described = section("Server → client (table socket)")
    for name in fields:
        assert f"`{name}`" in described, name


def test_the_limits_and_the_time_format_are_the_servers():
    limits = section("Limits")
    assert MAX_FRAME_BYTES == 16 * 1024 and "16 KiB" in limits
    assert MAX_SOCKET_MESSAGE_BYTES == 1024 * 1024 and "1 MiB" in limits and "1009" in limits
    connecting = section("Connecting")
    assert "ISO 8601 in UTC" in connecting and "`pong.server_time`" in connecting
    assert "retry_after" in limits and "exactly one answer" in connecting


def test_every_close_code_is_documented_and_the_page_knows_the_same():
    from games.consumers import CLOSE_NO_HELLO
    from games.socket_credentials import CLOSE_SIGNED_OUT
    from games.socket_slots import CLOSE_TOO_MANY

    codes = set(re.findall(r"^\| `(\d+)` \|", section("Close codes"), re.MULTILINE))
    assert {str(CLOSE_SIGNED_OUT), str(CLOSE_TOO_MANY), str(CLOSE_NO_HELLO), "1009"} <= codes
    page = (ROOT / "static" / "js" / "table" / "socket.js").read_text()
    assert f"CLOSE_SIGNED_OUT = {CLOSE_SIGNED_OUT};" in page and f"CLOSE_TOO_MANY = {CLOSE_TOO_MANY};" in page
