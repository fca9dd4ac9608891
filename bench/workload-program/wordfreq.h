/* SPDX-License-Identifier: GPL-2.0 */
/* wordfreq: counts the words of its input and prints the most frequent. */
#ifndef WORDFREQ_H
#define WORDFREQ_H

#include <stddef.h>
#include <stdio.h>

struct entry {
	char *word;
	unsigned long count;
	struct entry *next;
};

struct table {
	struct entry **slots;
	size_t size, used;
};

int table_init(struct table *table, size_t size);
int table_add(struct table *table, const char *word, size_t len);
void table_free(struct table *table);
int read_words(FILE *in, struct table *table);
void report(const struct table *table, size_t top);

#endif
