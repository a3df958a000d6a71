// add_custom_shape.h — the shape the add_custom kernel and its hosts share:
// kBlocks blocks of kTile floats each.
#pragma once

#include <cstdint>

constexpr uint32_t kBlocks = 8;
constexpr uint32_t kTile = 256;
