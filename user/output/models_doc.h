/* SPDX-License-Identifier: GPL-2.0 */
/*
 * README's table of supported CPUs, made from the model table (tools/mkdoc
 * models), so that it says exactly what the code recognises.
 */
#ifndef TD_MODELS_DOC_H
#define TD_MODELS_DOC_H

#include <stdio.h>

/* One Markdown table row per model row. */
void models_doc_write(FILE *out);

#endif /* TD_MODELS_DOC_H */
