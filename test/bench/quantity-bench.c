// SPDX-License-Identifier: Apache-2.0
/* quantity-bench - the C side of test/bench/quantity.sh: one quantity per
 * input line, its canonical form (or "error") per output line, as
 * quantity-peer.py prints them. */
#include <stdio.h>
#include <string.h>

#include "core/quantity.h"

int main(void)
{
	char line[4096], buf[QUANTITY_STR_MAX];
	struct quantity q;

	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		fputs(quantity_parse(line, &q, NULL) == 0 ? quantity_format(&q, buf) : "error",
		      stdout);
		putchar('\n');
	}
	return ferror(stdout) || fclose(stdout) != 0;
}
