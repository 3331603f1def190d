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
        ```

        * `bind KEY COMMAND` makes KEY run COMMAND, a name from the Command column above; the key stops
          running what it ran before. A command keeps its other keys.
        * `unbind KEY` makes KEY do nothing in lists.
        * KEY is a character (`x`, `X`, `#`, `:`), `^X` or `C-x` (Ctrl), `M-x` (Alt), `F1`…`F12`, or one of
          `Up Down Left Right Home End PgUp PgDn Enter Esc Tab S-Tab Bksp Del Ins Space` (any case; `↑ ↓ ← →` too).
          `^H`, `^I` and `^M`/`^J` are the keys the terminal sends for them: Bksp, Tab and Enter.
        * Commands typed after `:` take arguments and cannot be bound.

        A line that cannot be used is skipped and the status line names the file, the line and the reason
        (`key bindings: /home/me/.config/vellum/keys line 3: unknown command 'delet'`); the other lines
        still apply. The `?` help and the hint bar show the keys as bound, yours first (`bind x delete`
        makes the hint say `x delete` while `d` still works). Keys of the line editor,
        prompts, picker and overlays are fixed.

        """
}
