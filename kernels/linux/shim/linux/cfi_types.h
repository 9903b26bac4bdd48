/* SPDX-License-Identifier: MIT */
/* fputune's stand-in for <linux/cfi_types.h>: without CONFIG_CFI_CLANG a typed function is a plain one. */
#ifndef FPUTUNE_LINUX_SHIM_CFI_TYPES_H
#define FPUTUNE_LINUX_SHIM_CFI_TYPES_H
#include <linux/linkage.h>
#define SYM_TYPED_FUNC_START(name) SYM_FUNC_START(name)
#endif
