/* report.c - placeholder */
#include <stdio.h>

#include "view.h"

int av_report(const char *dir, const av_report_opts *o, FILE *out, char *err, size_t cap)
{
    (void)dir; (void)o; (void)out;
    snprintf(err, cap, "not yet");
    return -1;
}
