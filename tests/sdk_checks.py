"""What every transport must show the official SDK client: the three bundled tools, exactly."""


async def check_bundled_tools(client) -> list[str]:
    """Call each bundled tool through an SDK `Client`; returns the listed tool names."""
    names = [tool.name for tool in (await client.list_tools()).tools]
    assert names[:3] == ["add", "format_currency", "validate_date"]
    added = await client.call_tool("add", {"a": "1.10", "b": "2.20"})
    assert not added.is_error
    assert added.structured_content == {"sum": "3.30"}
    assert added.content[0].text == "3.30"
    money = await client.call_tool("format_currency", {"amount": -1234.5})
    assert money.structured_content == {"formatted": "-$1,234.50"}
    date = await client.call_tool("validate_date", {"date": "20230229"})
    assert date.structured_content == {"valid": False, "reason": "February 2023 has 28 days (2023 is not a leap year)"}
    bad = await client.call_tool("validate_date", {"date": "2023-02-29"})
    assert bad.is_error
    return names
