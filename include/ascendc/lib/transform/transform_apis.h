// lib/transform/transform_apis.h — every kernel-side API of the Tensor
// transform family (docs/transform.md): Transpose, TransData, Pad, UnPad,
// Broadcast (with GetBroadcastTilingInfo) and Fill.
#pragma once

#include "lib/transform/broadcast.h"
#include "lib/transform/fill.h"
#include "lib/transform/pad.h"
#include "lib/transform/transdata.h"
#include "lib/transform/transpose.h"
#include "lib/transform/unpad.h"
