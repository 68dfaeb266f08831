-- Drives `skanc lsp` through Neovim's own LSP client (headless, 0.7 or later), as an editor user would: opens
-- SKANC_SCHEMA, waits for the diagnostics Neovim received, formats and hovers through the client, and writes
-- what it saw as JSON to SKANC_OUT. Run: nvim --headless -u NONE -c "luafile Tests/Scripts/nvim_lsp_client.lua".
local skanc, schema, out = os.getenv("SKANC"), os.getenv("SKANC_SCHEMA"), os.getenv("SKANC_OUT")
vim.cmd("edit " .. vim.fn.fnameescape(schema))
local buf = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = "skanc", cmd = { skanc, "lsp" }, root_dir = vim.fn.fnamemodify(schema, ":h"),
})
vim.lsp.buf_attach_client(buf, client_id)
-- A bound for failure only: the first publication normally arrives within milliseconds.
local published = vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
local result = { published = published, diagnostics = {} }
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(result.diagnostics, {
    line = d.lnum, col = d.col, end_col = d.end_col, severity = d.severity, code = d.code, message = d.message,
  })
end
-- Fix the typo the schema carries, then format through the client.
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
for i, line in ipairs(lines) do lines[i] = line:gsub("when  purchas$", "when purchase") end
vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
vim.wait(60000, function() return #vim.diagnostic.get(buf, { severity = vim.diagnostic.severity.ERROR }) == 0 end, 20)
if vim.lsp.buf.format then
  vim.lsp.buf.format({ bufnr = buf, timeout_ms = 60000 })
else
  vim.lsp.buf.formatting_sync(nil, 60000)
end
result.formatted = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
-- Hover on the flag's name, through the client (the position in the client's own UTF-16 terms).
for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
  local column = line:find("bought", 1, true)
  if column then
    vim.api.nvim_win_set_cursor(0, { i, column - 1 })
    local answers = vim.lsp.buf_request_sync(buf, "textDocument/hover", vim.lsp.util.make_position_params(), 60000)
    for _, answer in pairs(answers or {}) do
      if answer.result then result.hover = answer.result.contents.value end
    end
  end
end
local file = io.open(out, "w")
file:write(vim.fn.json_encode(result))
file:close()
vim.lsp.stop_client(client_id, true)
vim.cmd("qa!")
