/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libbpf's usdt.bpf.h includes <linux/errno.h>, whose <asm/errno.h> is
 * per architecture and not on the BPF target's path: x86 and arm64 both
 * use the generic numbers, so the BPF object stays one for both.
 */
#include <asm-generic/errno.h>
