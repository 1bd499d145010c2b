#include "CLibEditShim.h"

int pick_el_set_int(EditLine *el, int op, int value) { return el_wset(el, op, value); }
int pick_el_set_prompt(EditLine *el, pick_prompt_fn fn) { return el_wset(el, EL_PROMPT, fn); }
int pick_el_set_prompt_esc(EditLine *el, pick_prompt_fn fn, wchar_t delimiter) {
    return el_wset(el, EL_PROMPT_ESC, fn, delimiter);
}
int pick_el_set_getcfn(EditLine *el, pick_getc_fn fn) { return el_wset(el, EL_GETCFN, fn); }
int pick_el_set_editor(EditLine *el, const wchar_t *mode) { return el_wset(el, EL_EDITOR, mode); }
int pick_el_get_editor(EditLine *el, const wchar_t **mode) { return el_wget(el, EL_EDITOR, mode); }
int pick_el_addfn(EditLine *el, const wchar_t *name, const wchar_t *help, pick_command_fn fn) {
    return el_wset(el, EL_ADDFN, name, help, fn);
}
int pick_el_bind(EditLine *el, const wchar_t *key, const wchar_t *fn, int command_map) {
    if (command_map) return el_wset(el, EL_BIND, L"-a", key, fn, (const wchar_t *)NULL);
    return el_wset(el, EL_BIND, key, fn, (const wchar_t *)NULL);
}
int pick_el_refresh(EditLine *el) { return el_wset(el, EL_REFRESH); }
int pick_el_settc(EditLine *el, const char *name, const char *value) {
    return el_set(el, EL_SETTC, name, value, (const char *)NULL);
}
