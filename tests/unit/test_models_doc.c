// SPDX-License-Identifier: GPL-2.0
/*
 * README's table of supported CPUs is the model table's (mkdoc models),
 * byte for byte, and names every row. Run from the top of the tree.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/models.h"
#include "output/models_doc.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	if (!f)
		fail_msg("failed to open %s (run from the top of the tree)", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	buf = calloc(1, len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, len, f), len);
	fclose(f);
	return buf;
}

static void test_readme_table(void **state)
{
	static const char begin[] = "<!-- models: made by `build/mkdoc models`";
	char *readme = slurp("README.md"), *made = NULL, *block, *end;
	size_t len = 0;
	FILE *mem = open_memstream(&made, &len);

	(void)state;
	models_doc_write(mem);
	fclose(mem);
	block = strstr(readme, begin);
	assert_non_null(block);
	block = strchr(block, '\n') + 1;
	end = strstr(block, "<!-- models end -->");
	assert_non_null(end);
	*end = '\0';
	if (strcmp(block, made))
		fail_msg("README.md's model table differs from the model table: paste "
			 "`make build/mkdoc && build/mkdoc models` between the markers");
	for (int i = 0; i < nr_intel_models; i++)
		assert_non_null(strstr(made, intel_models[i].name));
	for (int i = 0; i < nr_amd_models; i++)
		assert_non_null(strstr(made, amd_models[i].name));
	free(readme);
	free(made);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_readme_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
