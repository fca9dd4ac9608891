// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "wordfreq.h"

static uint64_t hash(const char *word, size_t len)
{
	uint64_t h = 14695981039346656037ull;

	while (len--)
		h = (h ^ (unsigned char)*word++) * 1099511628211ull;
	return h;
}

int table_init(struct table *table, size_t size)
{
	table->slots = calloc(size, sizeof(*table->slots));
	table->size = size;
	table->used = 0;
	return table->slots ? 0 : -1;
}

static int grow(struct table *table)
{
	struct table bigger;
	size_t i;

	if (table_init(&bigger, table->size * 2))
		return -1;
	for (i = 0; i < table->size; i++) {
		struct entry *e = table->slots[i], *next;

		for (; e; e = next) {
			size_t slot = hash(e->word, strlen(e->word)) % bigger.size;

			next = e->next;
			e->next = bigger.slots[slot];
			bigger.slots[slot] = e;
		}
	}
	free(table->slots);
	bigger.used = table->used;
	*table = bigger;
	return 0;
}

int table_add(struct table *table, const char *word, size_t len)
{
	size_t slot = hash(word, len) % table->size;
	struct entry *e;

	for (e = table->slots[slot]; e; e = e->next) {
		if (strlen(e->word) == len && !memcmp(e->word, word, len)) {
			e->count++;
			return 0;
		}
	}
	e = malloc(sizeof(*e));
	if (!e || !(e->word = strndup(word, len))) {
		free(e);
		return -1;
	}
	e->count = 1;
	e->next = table->slots[slot];
	table->slots[slot] = e;
	if (++table->used > table->size * 2)
		return grow(table);
	return 0;
}

void table_free(struct table *table)
{
	size_t i;

	for (i = 0; i < table->size; i++) {
		struct entry *e = table->slots[i], *next;

		for (; e; e = next) {
			next = e->next;
			free(e->word);
			free(e);
		}
	}
	free(table->slots);
}
