#ifndef CCURSES_H
#define CCURSES_H
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>
#include <locale.h>
#include <wchar.h>
#include <stdint.h>

/// Wrappers for ncurses macros, globals and variadic calls that Swift cannot
/// import directly (or cannot import safely under strict concurrency: C
/// globals such as LINES/COLS are imported as mutable vars).

// --- Screen geometry ---------------------------------------------------
int ccurses_colors(void);
int ccurses_color_pairs(void);
/// getmaxyx is a macro; writes rows/cols of stdscr.
void ccurses_getmaxyx(int *rows, int *cols);
WINDOW *ccurses_stdscr(void);

// --- Locale --------------------------------------------------------------
/// setlocale(LC_ALL, "") so ncursesw treats output as UTF-8.
void ccurses_setlocale_all(void);

// --- Attributes (macros in curses.h) -------------------------------------
uint32_t ccurses_a_normal(void);
uint32_t ccurses_a_bold(void);
uint32_t ccurses_a_reverse(void);
uint32_t ccurses_a_underline(void);
uint32_t ccurses_a_dim(void);
uint32_t ccurses_a_italic(void);
uint32_t ccurses_a_blink(void);
/// attr_set with an extended (int) pair number; works for pairs > 32767.
int ccurses_attr_set(uint32_t attrs, int pair);

// --- Keys (KEY_* macros) -------------------------------------------------
int ccurses_key_code_yes(void);
int ccurses_key_up(void);
int ccurses_key_down(void);
int ccurses_key_left(void);
int ccurses_key_right(void);
int ccurses_key_home(void);
int ccurses_key_end(void);
int ccurses_key_ppage(void);
int ccurses_key_npage(void);
int ccurses_key_backspace(void);
int ccurses_key_dc(void);
int ccurses_key_ic(void);
int ccurses_key_btab(void);
int ccurses_key_enter(void);
int ccurses_key_resize(void);
int ccurses_key_mouse(void);
/// KEY_F(n)
int ccurses_key_f(int n);
int ccurses_err(void);
int ccurses_ok(void);

/// get_wch wrapper: returns ERR, OK (ch is a character) or KEY_CODE_YES
/// (ch is a KEY_* code).
int ccurses_get_wch(uint32_t *ch);
/// getch: one input byte (0–255), a KEY_ code, or ERR.
int ccurses_getch(void);

// --- Mouse -----------------------------------------------------------------
uint32_t ccurses_button1_pressed(void);
uint32_t ccurses_button1_clicked(void);
uint32_t ccurses_button1_released(void);
uint32_t ccurses_button4_pressed(void);
uint32_t ccurses_button5_pressed(void);
/// Enables click + wheel reporting; returns the mask actually granted.
uint32_t ccurses_enable_mouse(void);
void ccurses_disable_mouse(void);
/// getmouse wrapper; returns OK/ERR and fills x, y, bstate.
int ccurses_getmouse(int *x, int *y, uint32_t *bstate);

// --- Colour -----------------------------------------------------------------
int ccurses_init_extended_pair(int pair, int fg, int bg);
int ccurses_can_change_color(void);

// --- Palette ----------------------------------------------------------------
/// Redefines palette slot `color` to (r, g, b) (0–1000 each) with terminfo's
/// `initc`, remembering (or0, og0, ob0) as the colour to put back. Written
/// directly, not through init_color, so ncurses never answers with `oc`
/// (OSC 104, which resets every colour the user configured). Returns OK/ERR.
int ccurses_palette_redefine(int color, int r, int g, int b, int r0, int g0, int b0);
/// Puts back the original of every redefined slot (and only those); the
/// redefinitions are kept for `ccurses_palette_reapply`.
void ccurses_palette_restore(void);
/// Applies the redefinitions again after a restore (resume from Ctrl-Z).
void ccurses_palette_reapply(void);
/// Restores and forgets every redefinition (theme change).
void ccurses_palette_forget(void);

// --- Output ------------------------------------------------------------------
/// Writes at most n bytes of a UTF-8 string at (y, x). ncursesw decodes the
/// multibyte string with the current locale (requires setlocale first).
int ccurses_mvaddnstr_utf8(int y, int x, const char *utf8, int nbytes);
/// Writes one cell at (y, x): a spacing character followed by up to four
/// zero-width ones (`count` in all), in the window's current attributes.
int ccurses_mvadd_cell(int y, int x, const uint32_t *chars, int count);
/// Makes the next refresh repaint the whole screen.
void ccurses_repaint_all(void);

// --- Characters and locale ------------------------------------------------------
/// The C library's wcwidth for `c` under a UTF-8 locale (whatever the
/// process locale is), i.e. the widths ncurses and most terminals use.
int ccurses_wcwidth_utf8(uint32_t c);
/// 1 if the process locale's character set (LC_CTYPE) is UTF-8.
int ccurses_locale_is_utf8(void);

// --- Misc --------------------------------------------------------------------
int ccurses_set_escdelay(int ms);
int ccurses_use_default_colors(void);

// --- terminfo ---------------------------------------------------------------
/// 1 if the capability is a string with content, 0 otherwise.
int ccurses_tigetstr_present(const char *cap);
/// tigetflag result: 1 true, 0 false/absent, -1 not a boolean capability.
int ccurses_tigetflag(const char *cap);
/// tigetnum result: value, -1 absent, -2 not numeric.
int ccurses_tigetnum(const char *cap);
/// Loads terminfo for the current TERM without taking over the screen, so
/// capabilities can be inspected before initscr. Returns 1 on success.
int ccurses_setupterm_probe(void);

// --- Lifecycle ----------------------------------------------------------------
/// endwin() if curses is active and not already ended. Safe to call from
/// atexit/signal-exit paths and any number of times.
void ccurses_restore_if_active(void);
/// Registers ccurses_restore_if_active with atexit exactly once.
void ccurses_register_atexit(void);
/// Stops the process with SIGTSTP (default disposition, unblocked in the
/// calling thread) so the shell gets control; returns when it is continued
/// (SIGCONT). Discarded by the kernel in an orphaned process group (no shell
/// to resume it), so it then returns at once.
void ccurses_raise_tstp(void);
int ccurses_isatty(int fd);
/// newterm(NULL, stdout, stdin) + set_term; unlike initscr it reports
/// failure (returns 0) instead of exiting the process.
int ccurses_start_screen(void);
/// signal(sig, SIG_IGN): SIG_IGN is a cast macro Swift cannot import.
void ccurses_ignore_signal(int sig);
/// timeout(ms) on stdscr.
void ccurses_timeout(int ms);

#endif
