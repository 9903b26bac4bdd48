/* SPDX-License-Identifier: MIT */
/* fputune's user-space stand-in for the kernel's <linux/linkage.h> (and <asm/linkage.h>, <asm/ibt.h>):
 * the symbol macros the x86 crypto asm uses, configured as the kernel a distribution ships runs them on
 * a CPU that needs no return thunk (eIBRS): RET is "ret; int3" (CONFIG_MITIGATION_SLS), ENDBR is endbr64
 * (CONFIG_X86_KERNEL_IBT; a no-op where CET is off, as in user space). Only for assembler input. */
#ifndef FPUTUNE_LINUX_SHIM_LINKAGE_H
#define FPUTUNE_LINUX_SHIM_LINKAGE_H

/* Every entry point starts on a page boundary, as fputune's own block functions do (see
 * kernels/sha/CMakeLists.txt: on AMD the same code ran up to 2.5x slower in some link layouts), so a
 * ratio between ours and the kernel's measures the code, not where the linker put it. The kernel
 * itself aligns functions to 16 bytes (CONFIG_FUNCTION_ALIGNMENT). */
#ifndef FPUTUNE_LINUX_FUNC_ALIGN
#define FPUTUNE_LINUX_FUNC_ALIGN 4096
#endif

#define ENDBR endbr64
#define RET ret; int3

#define SYM_FUNC_START(name) \
	.globl name; .type name, @function; .balign FPUTUNE_LINUX_FUNC_ALIGN, 0xcc; name: ENDBR
#define SYM_FUNC_START_LOCAL(name) \
	.type name, @function; .balign 16, 0xcc; name: ENDBR
#define SYM_FUNC_END(name) .size name, . - name
/* A second name for a function that ends before it (aesni-intel_asm.S: one key expansion step, two names). */
#define SYM_FUNC_ALIAS_LOCAL(alias, name) .type alias, @function; .set alias, name

#endif
