/* cli_sandbox.h - `arena sandbox`: what this host lets the arena do to confine bots (the
 * start-up probe, printed). Declared here rather than in cli.h, which the jail owns. */
#ifndef AR_CLI_SANDBOX_H
#define AR_CLI_SANDBOX_H

#include <stdio.h>

int ar_sandbox_main(int argc, char **argv);
void ar_sandbox_usage(FILE *out);

#endif
