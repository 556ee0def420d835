import pytest

from .stdio_client import StdioClient


@pytest.fixture
def server(cache_dir):
    with StdioClient() as client:
        yield client
