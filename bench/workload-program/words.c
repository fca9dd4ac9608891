// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include "wordfreq.h"

/* Adds each word (letters, digits and '_') of @in to @table. */
int read_words(FILE *in, struct table *table)
{
	char word[256];
	size_t len = 0;
	int c;

	while ((c = getc(in)) != EOF) {
		if (isalnum(c) || c == '_') {
			if (len < sizeof(word))
				word[len++] = tolower(c);
			continue;
		}
		if (len && table_add(table, word, len))
			return -1;
		len = 0;
	}
	return len ? table_add(table, word, len) : 0;
}
