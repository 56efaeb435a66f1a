"""Jamgate's transports: MCP over stdio and Streamable HTTP, the REST API, bearer and OAuth."""
