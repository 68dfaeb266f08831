-- Checks the README's Neovim setup as a user runs it: Neovim started with the README's lines as its init file
-- opens SKANC_SCHEMA; this writes to SKANC_OUT the filetype Neovim gave the file, the language servers attached
-- to it and whether diagnostics arrived.
-- Run: nvim --headless -u README_INIT.lua SCHEMA -c "luafile Tests/Scripts/nvim_readme_setup.lua".
local out = os.getenv("SKANC_OUT")
local buf = vim.api.nvim_get_current_buf()
-- A bound for failure only: the first publication normally arrives within milliseconds.
local published = vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
local names = {}
for _, client in pairs(vim.lsp.buf_get_clients(buf)) do table.insert(names, client.name) end
local file = io.open(out, "w")
file:write(vim.fn.json_encode({ filetype = vim.bo[buf].filetype, clients = names, published = published }))
file:close()
vim.cmd("qa!")
