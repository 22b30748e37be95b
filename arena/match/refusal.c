/* refusal.c - an engine refusal as the arena prints it (refusal.h). */
#include "refusal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

int ar_is_rule_number(const char *rule)
{
    if (!rule || !rule[0])
        return 0;
    if (isdigit((unsigned char)rule[0]))
        return 1;
    return rule[0] == 'G' && isdigit((unsigned char)rule[1]);
}

void ar_print_refusal(const char *what, const okr_refusal *why)
{
    size_t n = what ? strlen(what) : 0;
    fputs("arena: ", stderr);
    if (n && !(strncmp(why->reason, what, n) == 0 && why->reason[n] == ':'))
        fprintf(stderr, "%s: ", what);
    fputs(why->reason[0] ? why->reason : "refused", stderr);
    if (ar_is_rule_number(why->rule))
        fprintf(stderr, " (RULES %s)", why->rule);
    fputc('\n', stderr);
}
