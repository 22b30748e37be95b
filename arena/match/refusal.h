/* refusal.h - an engine refusal as the arena prints it: "arena: <what>: <reason> (RULES x.y)".
 * Used by the command line (rule options) and the tournament-file reader (its rule keys). */
#ifndef AR_REFUSAL_H
#define AR_REFUSAL_H

#include "okr/okr.h"

/* Print "arena: <what>: <reason> (RULES x.y)" to stderr. `what` is left out when the reason
 * already starts with it, and the rule when it is not a rule number. */
void ar_print_refusal(const char *what, const okr_refusal *why);

/* Is this refusal's rule a RULES.md number ("4.5", "G7", "6.G")? */
int ar_is_rule_number(const char *rule);

#endif
