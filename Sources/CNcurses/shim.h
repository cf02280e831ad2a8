// The C face of ncursesw for Swift.
//
// The build gets none of the -D flags pkg-config lists for ncursesw (-D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600):
// SwiftPM refuses them, and on Linux Package.swift does not ask pkg-config at all. Without them the
// wide-character API (get_wch, cchar_t, mvwin_wch, setcchar) would be hidden, so we define what it needs
// before the header.
// Everything Swift cannot import (function-like macros, variadic functions, macros over the acs_map array)
// is wrapped below as a small static inline function.
#ifndef HMON_CNCURSES_SHIM_H
#define HMON_CNCURSES_SHIM_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <locale.h>
#include <wchar.h>
#include <stdio.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>

// Attributes (macros built from NCURSES_BITS).
static inline attr_t hm_A_NORMAL(void)    { return A_NORMAL; }
static inline attr_t hm_A_BOLD(void)      { return A_BOLD; }
static inline attr_t hm_A_DIM(void)       { return A_DIM; }
static inline attr_t hm_A_REVERSE(void)   { return A_REVERSE; }
static inline attr_t hm_A_UNDERLINE(void) { return A_UNDERLINE; }
static inline attr_t hm_A_ITALIC(void)    { return A_ITALIC; }
static inline attr_t hm_A_STANDOUT(void)  { return A_STANDOUT; }
static inline attr_t hm_A_COLOR(void)     { return A_COLOR; }
static inline attr_t hm_COLOR_PAIR(int n) { return COLOR_PAIR(n); }
static inline int hm_PAIR_NUMBER(attr_t a) { return PAIR_NUMBER(a); }

// Keys.
static inline int hm_KEY_F(int n) { return KEY_F(n); }

// Mouse: the events hmon asks for (mask bits are function-like macros), and one event's fields.
static inline mmask_t hm_mouse_events(void) {
    return BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED | BUTTON5_PRESSED;
}
static inline int hm_mouse_is_click(mmask_t b)      { return (b & BUTTON1_PRESSED) != 0; }
static inline int hm_mouse_is_wheel_up(mmask_t b)   { return (b & BUTTON4_PRESSED) != 0; }
static inline int hm_mouse_is_wheel_down(mmask_t b) { return (b & BUTTON5_PRESSED) != 0; }
static inline int hm_KEY_MOUSE(void) { return KEY_MOUSE; }
// The next mouse event's column, row and button state; ERR when there is none. (Not "buttons": term.h
// defines that name as a macro for a terminfo capability.)
static inline int hm_getmouse(int *x, int *y, mmask_t *state) {
    MEVENT e;
    if (getmouse(&e) != OK) return ERR;
    *x = e.x; *y = e.y; *state = e.bstate;
    return OK;
}

// Size of a window (getmaxyx / getbegyx are macros that assign to their arguments).
static inline int hm_getmaxy(WINDOW *w) { int y, x; getmaxyx(w, y, x); (void)x; return y; }
static inline int hm_getmaxx(WINDOW *w) { int y, x; getmaxyx(w, y, x); (void)y; return x; }
static inline WINDOW *hm_stdscr(void) { return stdscr; }
static inline int hm_COLORS(void) { return COLORS; }
static inline int hm_COLOR_PAIRS(void) { return COLOR_PAIRS; }
static inline int hm_LINES(void) { return LINES; }
static inline int hm_COLS(void) { return COLS; }
static inline void hm_set_escdelay(int ms) { set_escdelay(ms); }

// Line-drawing characters (ACS_* index acs_map, WACS_* point into _nc_wacs, filled after initscr).
static inline chtype hm_ACS_HLINE(void)    { return ACS_HLINE; }
static inline chtype hm_ACS_VLINE(void)    { return ACS_VLINE; }
static inline chtype hm_ACS_ULCORNER(void) { return ACS_ULCORNER; }
static inline chtype hm_ACS_URCORNER(void) { return ACS_URCORNER; }
static inline chtype hm_ACS_LLCORNER(void) { return ACS_LLCORNER; }
static inline chtype hm_ACS_LRCORNER(void) { return ACS_LRCORNER; }
static inline const cchar_t *hm_WACS_HLINE(void) { return WACS_HLINE; }
static inline const cchar_t *hm_WACS_VLINE(void) { return WACS_VLINE; }

// printw is variadic; pass text through "%s".
static inline int hm_mvaddstr_fmt(int y, int x, const char *s) { return mvprintw(y, x, "%s", s); }

// One wide character (plus attributes and colour pair) written at y, x of a window.
static inline int hm_mvwadd_wch_attr(WINDOW *w, int y, int x, const wchar_t *wch, attr_t attrs, short pair) {
    cchar_t c;
    setcchar(&c, wch, attrs, pair, NULL);
    return mvwadd_wch(w, y, x, &c);
}

// Read back the cell at y, x: its characters (up to n), attributes and colour pair.
static inline int hm_mvwin_wch_read(WINDOW *w, int y, int x, wchar_t *out, int n, attr_t *attrs, short *pair) {
    cchar_t c;
    if (mvwin_wch(w, y, x, &c) == ERR) return ERR;
    wchar_t buf[CCHARW_MAX + 1];
    if (getcchar(&c, buf, attrs, pair, NULL) == ERR) return ERR;
    int i = 0;
    for (; i < n - 1 && buf[i] != 0; i++) out[i] = buf[i];
    out[i] = 0;
    return OK;
}

// get_wch into an int-sized result: returns OK, KEY_CODE_YES or ERR; the key or character in *out.
static inline int hm_wget_wch(WINDOW *w, unsigned int *out) {
    wint_t c = 0;
    int r = wget_wch(w, &c);
    *out = (unsigned int)c;
    return r;
}

// Terminal size of a tty (ioctl is variadic, so Swift cannot call it directly). Returns 0 on success.
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <fcntl.h>
#include <stdlib.h>
#include <langinfo.h>
static inline int hm_get_winsize(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
    *rows = ws.ws_row; *cols = ws.ws_col;
    return 0;
}
static inline int hm_set_winsize(int fd, int rows, int cols) {
    struct winsize ws = {0};
    ws.ws_row = (unsigned short)rows; ws.ws_col = (unsigned short)cols;
    return ioctl(fd, TIOCSWINSZ, &ws);
}

// A new pseudo-terminal pair (for tests): the controlling side in *master, the terminal's path in name.
static inline int hm_open_pty(int *master, char *name, int namelen, int rows, int cols) {
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    if (m < 0) return -1;
    if (grantpt(m) != 0 || unlockpt(m) != 0 || ptsname_r(m, name, (size_t)namelen) != 0) { close(m); return -1; }
    hm_set_winsize(m, rows, cols);
    *master = m;
    return 0;
}

// The C library's width of one character in the current locale (declared here: SwiftPM's flags hide it).
extern int wcwidth(wchar_t c);
static inline int hm_wcwidth(unsigned int c) { return wcwidth((wchar_t)c); }

// The name of the current locale's character set ("UTF-8", "ANSI_X3.4-1968", …).
static inline const char *hm_codeset(void) { return nl_langinfo(CODESET); }

// A terminfo string capability, or NULL when the terminal lacks it (tigetstr's (char *)-1 also becomes NULL).
static inline const char *hm_tigetstr(const char *name) {
    char *s = tigetstr((char *)name);
    if (s == NULL || s == (char *)-1) return NULL;
    return s;
}

#endif
