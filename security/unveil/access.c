// SPDX-License-Identifier: GPL-2.0-only
/*
 * unveil LSM - Permissions of a rule
 */

#include <kunit/test.h>
#include <linux/errno.h>

#include "access.h"

/**
 * unveil_parse_access - Parse the permission string of unveil()
 * @letters: NUL-terminated string of zero or more of "rwxc", in any order,
 *           repeats allowed.
 * @access: Where to store the permissions; untouched on error.
 *
 * Returns: 0 on success, or -EINVAL if @letters holds any other character.
 */
int unveil_parse_access(const char *letters, unveil_access_t *access)
{
	unveil_access_t parsed = 0;

	for (; *letters; letters++) {
		switch (*letters) {
		case 'r':
			parsed |= UNVEIL_ACCESS_READ;
			break;
		case 'w':
			parsed |= UNVEIL_ACCESS_WRITE;
			break;
		case 'x':
			parsed |= UNVEIL_ACCESS_EXEC;
			break;
		case 'c':
			parsed |= UNVEIL_ACCESS_CREATE;
			break;
		default:
			return -EINVAL;
		}
	}
	*access = parsed;
	return 0;
}

/**
 * unveil_format_access - Spell permissions as unveil() takes them
 * @access: Permissions.
 * @letters: Where to write them: %UNVEIL_ACCESS_LETTERS_SIZE bytes.
 *
 * Returns: @letters: the letters of @access in the order "rwxc", or "-" for
 * no permission at all.
 */
const char *unveil_format_access(const unveil_access_t access,
				 char *const letters)
{
	static const char all[] = "rwxc";
	char *pos = letters;
	int i;

	for (i = 0; all[i]; i++)
		if (access & BIT(i))
			*pos++ = all[i];
	if (pos == letters)
		*pos++ = '-';
	*pos = '\0';
	return letters;
}

#ifdef CONFIG_SECURITY_UNVEIL_KUNIT_TEST

static void test_parse_empty_grants_nothing(struct kunit *const test)
{
	unveil_access_t access = 0xff;

	KUNIT_EXPECT_EQ(test, 0, unveil_parse_access("", &access));
	KUNIT_EXPECT_EQ(test, 0, access);
}

static void test_parse_each_letter(struct kunit *const test)
{
	unveil_access_t access;

	KUNIT_ASSERT_EQ(test, 0, unveil_parse_access("r", &access));
	KUNIT_EXPECT_EQ(test, UNVEIL_ACCESS_READ, access);
	KUNIT_ASSERT_EQ(test, 0, unveil_parse_access("w", &access));
	KUNIT_EXPECT_EQ(test, UNVEIL_ACCESS_WRITE, access);
	KUNIT_ASSERT_EQ(test, 0, unveil_parse_access("x", &access));
	KUNIT_EXPECT_EQ(test, UNVEIL_ACCESS_EXEC, access);
	KUNIT_ASSERT_EQ(test, 0, unveil_parse_access("c", &access));
	KUNIT_EXPECT_EQ(test, UNVEIL_ACCESS_CREATE, access);
}

static void test_parse_any_order_and_repeats(struct kunit *const test)
{
	const unveil_access_t all = UNVEIL_ACCESS_READ | UNVEIL_ACCESS_WRITE |
				    UNVEIL_ACCESS_EXEC | UNVEIL_ACCESS_CREATE;
	unveil_access_t access;

	KUNIT_ASSERT_EQ(test, 0, unveil_parse_access("cxwr", &access));
	KUNIT_EXPECT_EQ(test, all, access);
	KUNIT_ASSERT_EQ(test, 0, unveil_parse_access("rrrr", &access));
	KUNIT_EXPECT_EQ(test, UNVEIL_ACCESS_READ, access);
}

static void test_parse_other_character_is_einval(struct kunit *const test)
{
	unveil_access_t access = 0x5a;

	KUNIT_EXPECT_EQ(test, -EINVAL, unveil_parse_access("q", &access));
	KUNIT_EXPECT_EQ(test, -EINVAL, unveil_parse_access("rR", &access));
	KUNIT_EXPECT_EQ(test, -EINVAL, unveil_parse_access("r ", &access));
	KUNIT_EXPECT_EQ(test, -EINVAL, unveil_parse_access("\xff", &access));
	KUNIT_EXPECT_EQ(test, 0x5a, access);
}

static void test_format_in_rwxc_order(struct kunit *const test)
{
	char letters[UNVEIL_ACCESS_LETTERS_SIZE];

	KUNIT_EXPECT_STREQ(test, "rwxc",
			   unveil_format_access(UNVEIL_ACCESS_CREATE |
						UNVEIL_ACCESS_EXEC |
						UNVEIL_ACCESS_WRITE |
						UNVEIL_ACCESS_READ, letters));
	KUNIT_EXPECT_STREQ(test, "rc",
			   unveil_format_access(UNVEIL_ACCESS_CREATE |
						UNVEIL_ACCESS_READ, letters));
	KUNIT_EXPECT_STREQ(test, "x",
			   unveil_format_access(UNVEIL_ACCESS_EXEC, letters));
}

static void test_format_nothing_is_dash(struct kunit *const test)
{
	char letters[UNVEIL_ACCESS_LETTERS_SIZE];

	KUNIT_EXPECT_STREQ(test, "-", unveil_format_access(0, letters));
}

static void test_format_parses_back(struct kunit *const test)
{
	char letters[UNVEIL_ACCESS_LETTERS_SIZE];
	unveil_access_t access, parsed;

	for (access = 1; access < 16; access++) {
		const char *const spelt = unveil_format_access(access, letters);

		KUNIT_ASSERT_EQ(test, 0, unveil_parse_access(spelt, &parsed));
		KUNIT_EXPECT_EQ(test, access, parsed);
	}
}

static struct kunit_case test_cases[] = {
	/* clang-format off */
	KUNIT_CASE(test_parse_empty_grants_nothing),
	KUNIT_CASE(test_parse_each_letter),
	KUNIT_CASE(test_parse_any_order_and_repeats),
	KUNIT_CASE(test_parse_other_character_is_einval),
	KUNIT_CASE(test_format_in_rwxc_order),
	KUNIT_CASE(test_format_nothing_is_dash),
	KUNIT_CASE(test_format_parses_back),
	{}
	/* clang-format on */
};

static struct kunit_suite test_suite = {
	.name = "unveil_access",
	.test_cases = test_cases,
};

kunit_test_suite(test_suite);

#endif /* CONFIG_SECURITY_UNVEIL_KUNIT_TEST */
