// wcwidth and uselocale are X/Open and POSIX 2008 declarations.
#define _GNU_SOURCE 1
#include "ccurses.h"
#include <ncursesw/term.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <langinfo.h>
#include <pthread.h>

// term.h defines many short macros (lines, columns, ...); it is included only
// here so they never leak into Swift.

int ccurses_colors(void) { return COLORS; }
int ccurses_color_pairs(void) { return COLOR_PAIRS; }
void ccurses_getmaxyx(int *rows, int *cols) {
    int r = 0, c = 0;
    if (stdscr) { getmaxyx(stdscr, r, c); }
    *rows = r; *cols = c;
}
WINDOW *ccurses_stdscr(void) { return stdscr; }

void ccurses_setlocale_all(void) { setlocale(LC_ALL, ""); }

uint32_t ccurses_a_normal(void) { return (uint32_t)A_NORMAL; }
uint32_t ccurses_a_bold(void) { return (uint32_t)A_BOLD; }
uint32_t ccurses_a_reverse(void) { return (uint32_t)A_REVERSE; }
uint32_t ccurses_a_underline(void) { return (uint32_t)A_UNDERLINE; }
uint32_t ccurses_a_dim(void) { return (uint32_t)A_DIM; }
uint32_t ccurses_a_italic(void) { return (uint32_t)A_ITALIC; }
uint32_t ccurses_a_blink(void) { return (uint32_t)A_BLINK; }
int ccurses_attr_set(uint32_t attrs, int pair) {
    // attr_set's pair argument is a short; the opts pointer carries the int.
    int p = pair;
    return attr_set((attr_t)attrs, (short)(pair > 32767 ? 0 : pair), &p);
}

int ccurses_key_code_yes(void) { return KEY_CODE_YES; }
int ccurses_key_up(void) { return KEY_UP; }
int ccurses_key_down(void) { return KEY_DOWN; }
int ccurses_key_left(void) { return KEY_LEFT; }
int ccurses_key_right(void) { return KEY_RIGHT; }
int ccurses_key_home(void) { return KEY_HOME; }
int ccurses_key_end(void) { return KEY_END; }
int ccurses_key_ppage(void) { return KEY_PPAGE; }
int ccurses_key_npage(void) { return KEY_NPAGE; }
int ccurses_key_backspace(void) { return KEY_BACKSPACE; }
int ccurses_key_dc(void) { return KEY_DC; }
int ccurses_key_ic(void) { return KEY_IC; }
int ccurses_key_btab(void) { return KEY_BTAB; }
int ccurses_key_enter(void) { return KEY_ENTER; }
int ccurses_key_resize(void) { return KEY_RESIZE; }
int ccurses_key_mouse(void) { return KEY_MOUSE; }
int ccurses_key_f(int n) { return KEY_F(n); }
int ccurses_err(void) { return ERR; }
int ccurses_ok(void) { return OK; }

int ccurses_get_wch(uint32_t *ch) {
    wint_t w = 0;
    int rc = get_wch(&w);
    *ch = (uint32_t)w;
    return rc;
}

int ccurses_getch(void) { return getch(); }

uint32_t ccurses_button1_pressed(void) { return (uint32_t)BUTTON1_PRESSED; }
uint32_t ccurses_button1_clicked(void) { return (uint32_t)BUTTON1_CLICKED; }
uint32_t ccurses_button1_released(void) { return (uint32_t)BUTTON1_RELEASED; }
uint32_t ccurses_button4_pressed(void) { return (uint32_t)BUTTON4_PRESSED; }
uint32_t ccurses_button5_pressed(void) { return (uint32_t)BUTTON5_PRESSED; }
// Mouse reports are decoded by Vellum (KeyDecoder), not by ncurses: ncurses keeps only
// the last of several reports read at once, so a press and its release arriving together
// (a quick drag, a busy program) lost the press. SGR reports (1006) are asked for because
// X10's single-byte coordinates stop at column 222 and are not ASCII past column 94.
static int ccurses_mouse_decoded_here = 0;
static void ccurses_sgr_mouse(int on) {
    if (!ccurses_mouse_decoded_here) return;
    // Straight to the terminal: a mode, not screen content, so its order against
    // ncurses' buffered output does not matter (putp's would wait for that buffer).
    const char *mode = on ? "\033[?1006h" : "\033[?1006l";
    ssize_t ignored = write(STDOUT_FILENO, mode, strlen(mode));
    (void)ignored;
}
uint32_t ccurses_enable_mouse(void) {
    mmask_t old = 0;
    mmask_t want = BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_RELEASED
                 | BUTTON4_PRESSED | BUTTON5_PRESSED;
    mmask_t got = mousemask(want, &old);
    mouseinterval(0); // report presses immediately, no click-detection delay
    // Only for terminals whose reports are escape sequences (kmous = CSI …); a mouse read
    // another way (gpm on the console) stays with ncurses.
    char *kmous = tigetstr("kmous");
    ccurses_mouse_decoded_here = got != 0 && kmous != NULL && kmous != (char *)-1 && strncmp(kmous, "\033[", 2) == 0;
    if (ccurses_mouse_decoded_here) keyok(KEY_MOUSE, FALSE);   // after mousemask, which turns it back on
    ccurses_sgr_mouse(1);
    return (uint32_t)got;
}
void ccurses_disable_mouse(void) {
    mmask_t old = 0;
    ccurses_sgr_mouse(0);
    mousemask(0, &old);   // ncurses tells the terminal to stop reporting (and to select text again)
}
int ccurses_getmouse(int *x, int *y, uint32_t *bstate) {
    MEVENT ev;
    int rc = getmouse(&ev);
    if (rc == OK) { *x = ev.x; *y = ev.y; *bstate = (uint32_t)ev.bstate; }
    return rc;
}

int ccurses_init_extended_pair(int pair, int fg, int bg) { return init_extended_pair(pair, fg, bg); }
int ccurses_can_change_color(void) { return can_change_color() ? 1 : 0; }

int ccurses_mvaddnstr_utf8(int y, int x, const char *utf8, int nbytes) {
    return mvaddnstr(y, x, utf8, nbytes);
}

int ccurses_mvadd_cell(int y, int x, const uint32_t *chars, int count) {
    wchar_t text[CCHARW_MAX + 1];
    int n = count < CCHARW_MAX ? count : CCHARW_MAX;
    for (int i = 0; i < n; i++) text[i] = (wchar_t)chars[i];
    text[n] = L'\0';
    cchar_t cell;
    if (setcchar(&cell, text, A_NORMAL, 0, NULL) != OK) return ERR;
    return mvadd_wch(y, x, &cell);
}
void ccurses_repaint_all(void) { clearok(curscr, TRUE); }

static locale_t ccurses_utf8_locale = (locale_t)0;
static pthread_once_t ccurses_utf8_once = PTHREAD_ONCE_INIT;
static void ccurses_load_utf8_locale(void) {
    ccurses_utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    if (ccurses_utf8_locale == (locale_t)0) {
        ccurses_utf8_locale = newlocale(LC_CTYPE_MASK, "en_US.UTF-8", (locale_t)0);
    }
}
int ccurses_wcwidth_utf8(uint32_t c) {
    // Widths are measured from any thread (tests run in parallel): the locale
    // object is created once, and uselocale only changes this thread's locale.
    pthread_once(&ccurses_utf8_once, ccurses_load_utf8_locale);
    if (ccurses_utf8_locale == (locale_t)0) return wcwidth((wchar_t)c);
    locale_t previous = uselocale(ccurses_utf8_locale);
    int width = wcwidth((wchar_t)c);
    uselocale(previous);
    return width;
}
int ccurses_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0) ? 1 : 0;
}

// Palette slots redefined for a theme: what was set and what to put back.
typedef struct { int color; int set[3]; int original[3]; } ccurses_redefinition;
static ccurses_redefinition ccurses_palette[256];
static int ccurses_palette_count = 0;
static int ccurses_palette_applied = 0;

static int ccurses_emit_initc(int color, const int rgb[3]) {
    char *initc = tigetstr("initc");
    if (initc == NULL || initc == (char *)-1 || initc[0] == '\0') return ERR;
    return putp(tiparm(initc, color, rgb[0], rgb[1], rgb[2]));
}
int ccurses_palette_redefine(int color, int r, int g, int b, int r0, int g0, int b0) {
    if (ccurses_palette_count >= 256) return ERR;
    ccurses_redefinition *d = &ccurses_palette[ccurses_palette_count];
    d->color = color;
    d->set[0] = r; d->set[1] = g; d->set[2] = b;
    d->original[0] = r0; d->original[1] = g0; d->original[2] = b0;
    if (ccurses_emit_initc(color, d->set) != OK) return ERR;
    ccurses_palette_count++;
    ccurses_palette_applied = 1;
    return OK;
}
void ccurses_palette_restore(void) {
    if (!ccurses_palette_applied) return;
    for (int i = 0; i < ccurses_palette_count; i++) {
        ccurses_emit_initc(ccurses_palette[i].color, ccurses_palette[i].original);
    }
    ccurses_palette_applied = 0;
}
void ccurses_palette_reapply(void) {
    if (ccurses_palette_applied) return;
    for (int i = 0; i < ccurses_palette_count; i++) {
        ccurses_emit_initc(ccurses_palette[i].color, ccurses_palette[i].set);
    }
    ccurses_palette_applied = ccurses_palette_count > 0;
}
void ccurses_palette_forget(void) {
    ccurses_palette_restore();
    ccurses_palette_count = 0;
}

int ccurses_set_escdelay(int ms) { return set_escdelay(ms); }
int ccurses_use_default_colors(void) { return use_default_colors(); }

int ccurses_tigetstr_present(const char *cap) {
    char *s = tigetstr((char *)cap);
    if (s == NULL || s == (char *)-1) return 0;
    return s[0] != '\0' ? 1 : 0;
}
int ccurses_tigetflag(const char *cap) { return tigetflag((char *)cap); }
int ccurses_tigetnum(const char *cap) { return tigetnum((char *)cap); }
int ccurses_setupterm_probe(void) {
    int err = 0;
    if (cur_term != NULL) return 1;
    return setupterm(NULL, STDOUT_FILENO, &err) == OK ? 1 : 0;
}

#include <signal.h>
static int ccurses_atexit_registered = 0;
void ccurses_restore_if_active(void) {
    if (stdscr != NULL && !isendwin()) {
        ccurses_palette_restore();
        ccurses_disable_mouse();
        curs_set(1);
        endwin();
    }
}
void ccurses_register_atexit(void) {
    if (!ccurses_atexit_registered) {
        ccurses_atexit_registered = 1;
        atexit(ccurses_restore_if_active);
    }
}
void ccurses_raise_tstp(void) {
    // The loop runs on a thread that blocks most signals (dispatch worker
    // threads do), and raise() targets the calling thread: unblock SIGTSTP
    // here or it stays pending and the process never stops.
    struct sigaction stop, previous;
    memset(&stop, 0, sizeof stop);
    stop.sa_handler = SIG_DFL;
    sigemptyset(&stop.sa_mask);
    sigaction(SIGTSTP, &stop, &previous);
    sigset_t only, old;
    sigemptyset(&only);
    sigaddset(&only, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &only, &old);
    raise(SIGTSTP);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    sigaction(SIGTSTP, &previous, NULL);
}
int ccurses_isatty(int fd) { return isatty(fd); }
int ccurses_start_screen(void) {
    SCREEN *screen = newterm(NULL, stdout, stdin);
    if (screen == NULL) return 0;
    set_term(screen);
    return 1;
}
void ccurses_ignore_signal(int sig) { signal(sig, SIG_IGN); }
void ccurses_timeout(int ms) { timeout(ms); }
