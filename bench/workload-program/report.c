// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "wordfreq.h"

static int by_count(const void *a, const void *b)
{
	const struct entry *x = *(struct entry *const *)a;
	const struct entry *y = *(struct entry *const *)b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->word, y->word);
}

/* Prints the @top most frequent words of @table, ties in word order. */
void report(const struct table *table, size_t top)
{
	struct entry **all = malloc(table->used * sizeof(*all));
	size_t i, n = 0;

	if (!all)
		return;
	for (i = 0; i < table->size; i++) {
		struct entry *e;

		for (e = table->slots[i]; e; e = e->next)
			all[n++] = e;
	}
	qsort(all, n, sizeof(*all), by_count);
	for (i = 0; i < n && i < top; i++)
		printf("%8lu %s\n", all[i]->count, all[i]->word);
	free(all);
}
