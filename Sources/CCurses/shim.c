#include "ccurses.h"

int ccurses_lines(void) { return LINES; }
int ccurses_cols(void) { return COLS; }
