// Fixed-signature wrappers over libedit's variadic el_wset/el_wget/history_w, which
// Swift cannot call directly.
#ifndef PICK_CLIBEDIT_SHIM_H
#define PICK_CLIBEDIT_SHIM_H
#include <stdio.h>
#include <wchar.h>
#include <histedit.h>

typedef wchar_t *(*pick_prompt_fn)(EditLine *);
typedef int (*pick_getc_fn)(EditLine *, wchar_t *);
typedef unsigned char (*pick_command_fn)(EditLine *, int);

int pick_el_set_int(EditLine *el, int op, int value);
int pick_el_set_prompt(EditLine *el, pick_prompt_fn fn);
/// The prompt with escape sequences: characters between two `delimiter`s take no columns.
int pick_el_set_prompt_esc(EditLine *el, pick_prompt_fn fn, wchar_t delimiter);
int pick_el_set_getcfn(EditLine *el, pick_getc_fn fn);
int pick_el_set_editor(EditLine *el, const wchar_t *mode);
int pick_el_get_editor(EditLine *el, const wchar_t **mode);
int pick_el_addfn(EditLine *el, const wchar_t *name, const wchar_t *help, pick_command_fn fn);
int pick_el_bind(EditLine *el, const wchar_t *key, const wchar_t *fn, int command_map);
int pick_el_refresh(EditLine *el);
/* Sets a terminal capability, as `settc NAME VALUE` in editrc (EL_SETTC). */
int pick_el_settc(EditLine *el, const char *name, const char *value);
#endif
