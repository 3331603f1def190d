/// The docs/keys.md section on the user's bindings file (kept beside the
/// parser's rules so the two change together).
enum BindingsFileDoc {
    static let markdown = """

        ## Changing the keys

        The browser reads `$XDG_CONFIG_HOME/vellum/keys` (without `XDG_CONFIG_HOME`: `~/.config/vellum/keys`)
        when it starts. One instruction a line; `#` starts a comment; blank lines are skipped:

        ```
        # vim users keep j/k; these add to them
        bind x delete        # x deletes too (d still does)
        bind ^D page-down
        unbind q             # q does nothing; ^C still quits
        bind x keep-mine     # in the conflict prompt, x keeps mine (m still does)
        bind ^S line-confirm # ^S applies a filter, runs a command, saves an edit
        unbind q summary     # q no longer closes the summary (Esc and F still do)
        ```

        * `bind KEY COMMAND` makes KEY run COMMAND, a name from a Command column above; the key stops
          running what it ran before. A command keeps its other keys.
        * Each command works in one mode: lists (the first table), the line prompts (`line`), the y/n
          questions (`question`), the `conflict` prompt, the `picker`, the `summary` and the `columns` list.
          `bind` binds the key in the command's mode only, so Enter can open in lists and apply in `/`.
          In `line` and `picker` typed characters are text: only control keys, F-keys and named keys
          can be bound there.
        * `unbind KEY` makes KEY do nothing in lists; `unbind KEY MODE` (MODE one of `browse line
          question conflict picker summary columns`) in that mode.
        * KEY is a character (`x`, `X`, `#`, `:`), `^X` or `C-x` (Ctrl), `M-x` (Alt), `F1`…`F12`, or one of
          `Up Down Left Right Home End PgUp PgDn Enter Esc Tab S-Tab Bksp Del Ins Space` (any case; `↑ ↓ ← →` too).
          `^H`, `^I` and `^M`/`^J` are the keys the terminal sends for them: Bksp, Tab and Enter.
        * Commands typed after `:` take arguments and cannot be bound.

        A line that cannot be used is skipped and the status line names the file, the line and the reason
        (`key bindings: /home/me/.config/vellum/keys line 3: unknown command 'delet'`); the other lines
        still apply. The `?` help and the hint bar show the keys as bound, yours first (`bind x delete`
        makes the hint say `x delete` while `d` still works); so do the hint lines of the prompts and
        overlays (`bind x keep-mine` makes the conflict prompt say `x keep mine`). The keys without a
        command (the line editor's cursor and delete keys, the mouse, Esc or ^C stopping slow work) are fixed.

        """
}
