// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include "wordfreq.h"

int main(int argc, char *argv[])
{
	struct table table;
	size_t top = argc > 1 ? strtoul(argv[1], NULL, 10) : 10;

	if (table_init(&table, 1024) || read_words(stdin, &table))
		return 1;
	report(&table, top);
	table_free(&table);
	return 0;
}
