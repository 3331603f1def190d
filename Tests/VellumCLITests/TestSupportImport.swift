// Every file of this target sees the shared test helpers (TempDir, fixtures,
// waitUntil, the sqlite3 shell, Tmux) without importing them one by one.
@_exported import VellumTestSupport
