"""A pytest-lsp client connected to `skanc lsp` (the binary in $SKANC), initialized with the capabilities
Visual Studio Code declares, so answers are checked against what a real editor accepts."""

import os
import pathlib

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[os.environ.get("SKANC", "skanc"), "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"), root_uri=ROOT.as_uri()
        )
    )
    yield
    await lsp_client.shutdown_session()
