-- Drives `skanc lsp` through Neovim's own LSP client (headless, 0.7 or later), as an editor user would: opens
-- SKANC_SCHEMA, waits for the diagnostics Neovim received, applies the quick fix the server offers for the
-- first one, formats, hovers on the last character of the first SKANC_HOVER and asks for completions after the
-- first SKANC_COMPLETE, all through the client, and writes what it saw as JSON to SKANC_OUT.
-- Run: nvim --headless -u NONE -c "luafile Tests/Scripts/nvim_lsp_client.lua".
local skanc, schema, out = os.getenv("SKANC"), os.getenv("SKANC_SCHEMA"), os.getenv("SKANC_OUT")
local hover_word, complete_after = os.getenv("SKANC_HOVER"), os.getenv("SKANC_COMPLETE")
vim.cmd("edit " .. vim.fn.fnameescape(schema))
local buf = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = "skanc", cmd = { skanc, "lsp" }, root_dir = vim.fn.fnamemodify(schema, ":h"),
})
vim.lsp.buf_attach_client(buf, client_id)
-- A bound for failure only: the first publication normally arrives within milliseconds.
local published = vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
local result = { published = published, diagnostics = {}, actions = {} }
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(result.diagnostics, {
    line = d.lnum, col = d.col, end_col = d.end_col, severity = d.severity, code = d.code, message = d.message,
  })
end

-- Where `word` first stands, as a cursor position (1-based line, 0-based byte column), or nil.
local function find(word)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local column = line:find(word, 1, true)
    if column then return { i, column - 1 } end
  end
end

-- The quick fix for the first diagnostic, asked for and applied through the client.
local first = vim.diagnostic.get(buf)[1]
if first then
  vim.api.nvim_win_set_cursor(0, { first.lnum + 1, first.col })
  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf) }
  local answers = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", params, 60000)
  for _, answer in pairs(answers or {}) do
    for _, action in ipairs(answer.result or {}) do
      table.insert(result.actions, action.title)
      if action.edit then vim.lsp.util.apply_workspace_edit(action.edit, "utf-16") end
    end
  end
end
vim.wait(60000, function() return #vim.diagnostic.get(buf, { severity = vim.diagnostic.severity.ERROR }) == 0 end, 20)
result.fixed = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
if vim.lsp.buf.format then
  vim.lsp.buf.format({ bufnr = buf, timeout_ms = 60000 })
else
  vim.lsp.buf.formatting_sync(nil, 60000)
end
result.formatted = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
-- Hover and completion, each at a position in the client's own UTF-16 terms.
local at = hover_word and find(hover_word)
if at then
  vim.api.nvim_win_set_cursor(0, { at[1], at[2] + #hover_word - 1 })
  local answers = vim.lsp.buf_request_sync(buf, "textDocument/hover", vim.lsp.util.make_position_params(), 60000)
  for _, answer in pairs(answers or {}) do
    if answer.result then result.hover = answer.result.contents.value end
  end
end
at = complete_after and find(complete_after)
if at then
  vim.api.nvim_win_set_cursor(0, { at[1], at[2] + #complete_after })
  local answers = vim.lsp.buf_request_sync(
    buf, "textDocument/completion", vim.lsp.util.make_position_params(), 60000)
  result.completions = {}
  for _, answer in pairs(answers or {}) do
    for _, item in ipairs(answer.result and (answer.result.items or answer.result) or {}) do
      table.insert(result.completions, item.label)
    end
  end
end
local file = io.open(out, "w")
file:write(vim.fn.json_encode(result))
file:close()
vim.lsp.stop_client(client_id, true)
vim.cmd("qa!")
