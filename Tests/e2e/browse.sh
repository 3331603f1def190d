#!/bin/sh
# End-to-end check of the browser in a real terminal (tmux).
# Needs the CLI wiring (`vellum FILE` / `vellum demo` calling AppCommands) and tmux.
# Run from the package root after `swift build`:  sh Tests/e2e/browse.sh [STORE]
# Without STORE, the demo store is used ($XDG_DATA_HOME/vellum/demo.sqlite, created by `vellum demo`).
set -eu
BIN=${VELLUM_BIN:-.build/debug/vellum}
STORE=${1:-${XDG_DATA_HOME:-$HOME/.local/share}/vellum/demo.sqlite}
SESSION=vellum-e2e-$$
fail() { echo "FAIL: $1"; tmux capture-pane -p -t "$SESSION" || true; tmux kill-session -t "$SESSION" 2>/dev/null || true; exit 1; }
expect() { # expect TEXT: wait up to 5 s for TEXT on screen
    i=0
    while [ $i -lt 50 ]; do
        tmux capture-pane -p -t "$SESSION" | grep -q -- "$1" && return 0
        sleep 0.1; i=$((i + 1))
    done
    fail "expected '$1'"
}
[ -f "$STORE" ] || { echo "no store at $STORE (run 'vellum demo' once)"; exit 2; }
tmux new-session -d -s "$SESSION" -x 120 -y 40 "$BIN $STORE"
expect "Entities"
expect "Product"
tmux send-keys -t "$SESSION" ':' 'goto Product' Enter
expect "row 1/"
tmux send-keys -t "$SESSION" '/' 'price >'
expect "\\^ expected"
tmux send-keys -t "$SESSION" ' 100' Enter
expect "filter: price > 100"
tmux send-keys -t "$SESSION" '?'
expect "Line editor"
tmux send-keys -t "$SESSION" Escape 'q'
sleep 0.5
tmux has-session -t "$SESSION" 2>/dev/null && fail "did not quit"
echo "PASS"
