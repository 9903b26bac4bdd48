/* SPDX-License-Identifier: MIT */
/* fputune's stand-in for <asm/frame.h>: distribution kernels unwind with ORC, without frame pointers
 * (CONFIG_FRAME_POINTER unset), so FRAME_BEGIN and FRAME_END emit nothing. */
#ifndef FPUTUNE_LINUX_SHIM_FRAME_H
#define FPUTUNE_LINUX_SHIM_FRAME_H
#define FRAME_BEGIN
#define FRAME_END
#endif
