#include <stdio.h>
#include <histedit.h>
#include <editline/readline.h>

// Accessors for libedit's readline globals: Swift 6 refuses to touch mutable C globals
// directly (they are not concurrency-safe), so the REPL goes through these on its one thread.

static inline void listjournal_edit_configure(const char *name, rl_completion_func_t *complete) {
  rl_readline_name = name;
  rl_attempted_completion_function = complete;
}

static inline const char *listjournal_edit_line_buffer(void) {
  return rl_line_buffer;
}
