/* SPDX-License-Identifier: MIT */
/* fputune's stand-in for <asm/nospec-branch.h>: the indirect jump as the kernel patches it in at boot on
 * a CPU with enhanced IBRS (no retpoline): a plain jmp through the register. */
#ifndef FPUTUNE_LINUX_SHIM_NOSPEC_BRANCH_H
#define FPUTUNE_LINUX_SHIM_NOSPEC_BRANCH_H
.macro JMP_NOSPEC reg:req
	jmp *%\reg
	int3
.endm
#endif
