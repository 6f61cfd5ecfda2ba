#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <histedit.h>

// libedit's own API for the REPL. Its configuration calls (el_set, history) are C variadic
// functions, which Swift cannot call, so these wrappers make each call the REPL needs.

typedef unsigned char (*listjournal_edit_function)(EditLine *, int);

/// The terminal's settings before editing, restored while the REPL is suspended (a function's
/// static: Swift does not emit a header's static variables).
static inline struct termios *listjournal_edit_cooked(void) {
  static struct termios settings;
  return &settings;
}

/// Ctrl-Z while a line is edited (the terminal's signal keys are off then): suspends the
/// process with the terminal as it was, and takes up editing again when it continues.
static unsigned char listjournal_edit_suspend(EditLine *el, int key) {
  (void)el;
  (void)key;
  struct termios editing;
  if (tcgetattr(STDIN_FILENO, &editing) != 0) return CC_ERROR;
  tcsetattr(STDIN_FILENO, TCSADRAIN, listjournal_edit_cooked());
  kill(getpid(), SIGTSTP);
  tcsetattr(STDIN_FILENO, TCSADRAIN, &editing);
  return CC_REDISPLAY;
}

/// An emacs-mode editor on stdin/stdout with `complete` on Tab, `cancel` on Ctrl-C and a
/// suspend on Ctrl-Z (while a line is edited the terminal's signal keys are off, so they
/// arrive as keys), then ~/.editrc.
static inline EditLine *listjournal_edit_open(
    const char *name, char *(*prompt)(EditLine *), History *lines,
    listjournal_edit_function complete, listjournal_edit_function cancel) {
  tcgetattr(STDIN_FILENO, listjournal_edit_cooked());
  EditLine *el = el_init(name, stdin, stdout, stderr);
  if (el == NULL) return NULL;
  el_set(el, EL_EDITOR, "emacs");
  el_set(el, EL_PROMPT, prompt);
  el_set(el, EL_HIST, history, lines);
  el_set(el, EL_ADDFN, "listjournal-complete", "complete a command, identifier or version", complete);
  el_set(el, EL_BIND, "^I", "listjournal-complete", NULL);
  el_set(el, EL_ADDFN, "listjournal-cancel", "cancel the line being typed", cancel);
  el_set(el, EL_SETTY, "-d", "-isig", NULL);
  el_set(el, EL_BIND, "^C", "listjournal-cancel", NULL);
  el_set(el, EL_ADDFN, "listjournal-suspend", "suspend the REPL", listjournal_edit_suspend);
  el_set(el, EL_BIND, "^Z", "listjournal-suspend", NULL);
  el_source(el, NULL);
  return el;
}

/// A history keeping at most `size` distinct-in-a-row lines.
static inline History *listjournal_history_open(int size) {
  History *h = history_init();
  if (h == NULL) return NULL;
  HistEvent event;
  history(h, &event, H_SETSIZE, size);
  history(h, &event, H_SETUNIQUE, 1);
  return h;
}

static inline int listjournal_history_enter(History *h, const char *line) {
  HistEvent event;
  return history(h, &event, H_ENTER, line);
}

static inline int listjournal_history_load(History *h, const char *path) {
  HistEvent event;
  return history(h, &event, H_LOAD, path);
}

static inline int listjournal_history_save(History *h, const char *path) {
  HistEvent event;
  return history(h, &event, H_SAVE, path);
}

/// Walks the history oldest first: `first` nonzero starts at the oldest line; NULL past the newest.
static inline const char *listjournal_history_step(History *h, int first) {
  HistEvent event;
  if (history(h, &event, first ? H_LAST : H_PREV, 0) < 0) return NULL;
  return event.str;
}

/// The terminal's width in columns, or 0 when `descriptor` is not a terminal.
static inline int listjournal_terminal_width(int descriptor) {
  struct winsize size;
  if (ioctl(descriptor, TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}
