#!/usr/bin/env bash
# Shows `skanc lsp` in Neovim as a user sees it and saves a screenshot, as docs/images/ holds:
#   Scripts/editor-screenshot.sh docs/images/neovim-lsp.png
# Neovim runs in a tmux pane on Schemas/Shop.skan with a misspelled case (the server's "did you mean" error,
# shown by Neovim) and the hover of a field open; the pane is captured with its colours (tmux capture-pane -e),
# turned into HTML (Scripts/ansi_to_html.py) and rendered by headless Chromium. Needs neovim (0.7 or
# later), tmux and chromium (Debian packages). SKANC names the skanc binary (default: .build/debug/skanc).
set -euo pipefail
out=$(realpath -m "$1")
cd "$(dirname "$0")/.."
skanc=$(realpath "${SKANC:-.build/debug/skanc}")
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
for tool in nvim tmux "$browser"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "missing: ${tool:-chromium}; apt-get install it" >&2; exit 69; }
done
work=$(mktemp -d)
session="skanc-screenshot-$$"
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$work"' EXIT
sed 's/paymentTier >= medium/paymentTier >= mediun/' Schemas/Shop.skan > "$work/Shop.skan"
cat > "$work/init.lua" <<LUA
vim.o.number = true
vim.o.signcolumn = "yes"
vim.o.termguicolors = true
vim.cmd("syntax off")
vim.cmd("colorscheme slate")
vim.cmd("highlight SignColumn guibg=NONE")
vim.cmd("highlight NormalFloat guibg=#2d3340 guifg=#e6e6e6")
-- After the file is loaded and the screen drawn.
vim.api.nvim_create_autocmd("VimEnter", { callback = function()
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({ name = "skanc", cmd = { "$skanc", "lsp" }, root_dir = "$work" })
vim.lsp.buf_attach_client(buf, id)
vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
vim.api.nvim_win_set_cursor(0, { 8, 8 })
vim.lsp.buf.hover()
vim.wait(30000, function()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= "" then return true end
  end
  return false
end, 20)
vim.cmd("redraw")
vim.defer_fn(function() io.open("$work/ready", "w"):close() end, 200)
end })
LUA
tmux new-session -d -s "$session" -x 132 -y 34 -c "$work" "TERM=xterm-256color nvim -u '$work/init.lua' Shop.skan"
# Until Neovim says the hover is drawn (a bound for failure only).
for _ in $(seq 600); do [ -e "$work/ready" ] && break; sleep 0.1; done
[ -e "$work/ready" ] || { echo "neovim did not show the hover" >&2; exit 1; }
tmux capture-pane -e -p -t "$session" | python3 Scripts/ansi_to_html.py > "$work/page.html"
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1220,720 \
    --screenshot="$out" "file://$work/page.html" 2>/dev/null
[ -s "$out" ] || { echo "chromium made no screenshot" >&2; exit 1; }
