// SPDX-License-Identifier: GPL-2.0
/*
 * Build-time writer of tdtrace's documents made from the option table:
 *   mkdoc man DATE    tdtrace(8)
 *   mkdoc completion  bash completion
 *   mkdoc models      README's table of supported CPUs
 *   mkdoc formulas    every model row's events and formulas, JSON lines
 *                     (scripts/check-formulas, scripts/check-encodings)
 */
#include <stdio.h>
#include <string.h>
#include "cli/man.h"
#include "output/formulas_doc.h"
#include "output/models_doc.h"

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "man"))
		man_write(stdout, argv[2]);
	else if (argc == 2 && !strcmp(argv[1], "completion"))
		completion_write(stdout);
	else if (argc == 2 && !strcmp(argv[1], "models"))
		models_doc_write(stdout);
	else if (argc == 2 && !strcmp(argv[1], "formulas"))
		formulas_doc_write(stdout);
	else {
		fprintf(stderr, "usage: mkdoc man DATE | mkdoc completion | mkdoc models | "
				"mkdoc formulas\n");
		return 2;
	}
	return fflush(stdout) ? 1 : 0;
}
