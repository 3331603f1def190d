#ifndef CCURSES_H
#define CCURSES_H
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>
#include <locale.h>
#include <wchar.h>

/// Wrappers for ncurses macros and variadic calls that Swift cannot import.
int ccurses_lines(void);
int ccurses_cols(void);
#endif
