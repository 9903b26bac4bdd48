/* SPDX-License-Identifier: MIT */
/* fputune's stand-in for <linux/objtool.h> (6.15+ asm includes it): objtool's annotations only tell the
 * kernel's build-time checker about the code that follows; they emit nothing that runs. */
#ifndef FPUTUNE_LINUX_SHIM_OBJTOOL_H
#define FPUTUNE_LINUX_SHIM_OBJTOOL_H
#define ANNOTATE_NOENDBR
#define ANNOTATE_NOENDBR_SYM(sym)
#define ANNOTATE_UNRET_SAFE
#endif
