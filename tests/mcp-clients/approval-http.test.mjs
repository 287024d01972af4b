// approval.test.mjs again, every server reached over MCP Streamable HTTP
// (`cua-mcp --listen`, the SDK's StreamableHTTPClientTransport) instead of
// stdio: the same tools, effects and assertions.
//
// SPDX-License-Identifier: MIT
process.env.CUA_MCP_TRANSPORT = 'http';
await import('./approval.test.mjs');
