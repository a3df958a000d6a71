#!/usr/bin/env python3
"""cube_aipp_golden.py — the source image and the numpy golden for cube_aipp.

Writes, raw little-endian, into DIR:
  img.bin    the source image: for --case rgb an H x W RGB888 image (three
             bytes a pixel); for --case yuv an H x W YUV420SP image (the Y
             plane, then the interleaved UV plane of H / 2 rows of W bytes);
  out.bin    what each block of cube_aipp leaves in GM: for each strip of
             ROWS rows, the window's columns 2 .. W - 3, padded as the
             program asks (1 row on top, 2 below, 2 columns left, 4 right),
             pixel after pixel, each pixel 4 channels (channel padding to 4):
             rgb: R and B swapped, mean (128, 100, 50) taken off, saturated
                  to int8, edge padding (the nearest pixel), channel 3 = 85;
             yuv: YUV -> RGB by the BT.601 matrix in 1/256 units ((M · (in -
                  (16, 128, 128))) >> 8, clamped to 0..255), then
                  (x - 0 - min) · var in half (min -0.5, var 1/255), each step
                  rounded to half, mirrored padding, channel 3 = 2.0.

Usage: python3 cube_aipp_golden.py --case rgb|yuv --width W --height H
       --rows ROWS [--seed S] --out DIR
"""
import argparse
import os

import numpy as np

TOP, BOT, LEFT, RIGHT = 1, 2, 2, 4
YUV2RGB = np.array([[298, 0, 409], [298, -100, -208], [298, 516, 0]],
                   dtype=np.int64)


def pixels(case, img, width, height):
    """H x W x 3 channels after the read (before any conversion)."""
    if case == "rgb":
        return img[:height * width * 3].reshape(height, width, 3).astype(np.int64)
    y = img[:height * width].reshape(height, width).astype(np.int64)
    uv = img[height * width:].reshape(height // 2, width // 2, 2).astype(np.int64)
    uv = uv.repeat(2, axis=0).repeat(2, axis=1)
    return np.concatenate([y[:, :, None], uv], axis=2)


def convert(case, px):
    if case == "rgb":
        px = px[:, :, ::-1]  # isSwapRB
        out = np.clip(px - np.array([128, 100, 50]), -128, 127).astype(np.int8)
        return out, np.int8(85)
    centered = px - np.array([16, 128, 128])
    rgb = np.clip((centered @ YUV2RGB.T) >> 8, 0, 255)
    shifted = (rgb.astype(np.float64) - np.float64(np.float16(-0.5))).astype(np.float16)
    var = np.float64(np.float16(1.0 / 255))
    out = (shifted.astype(np.float64) * var).astype(np.float16)
    return out, np.float16(2.0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", choices=["rgb", "yuv"], required=True)
    parser.add_argument("--width", type=int, required=True)
    parser.add_argument("--height", type=int, required=True)
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    w, h = args.width, args.height
    rng = np.random.default_rng(args.seed)
    size = h * w * 3 if args.case == "rgb" else h * w * 3 // 2
    img = rng.integers(0, 256, size=size, dtype=np.uint8)
    converted, fill = convert(args.case, pixels(args.case, img, w, h))
    mode = "edge" if args.case == "rgb" else "symmetric"
    strips = []
    for first in range(0, h, args.rows):
        window = converted[first:min(first + args.rows, h), 2:w - 2]
        padded = np.pad(window, ((TOP, BOT), (LEFT, RIGHT), (0, 0)), mode=mode)
        full = np.full(padded.shape[:2] + (4,), fill, dtype=padded.dtype)
        full[:, :, :3] = padded
        strips.append(full.reshape(-1))
    os.makedirs(args.out, exist_ok=True)
    img.tofile(os.path.join(args.out, "img.bin"))
    np.concatenate(strips).tofile(os.path.join(args.out, "out.bin"))


if __name__ == "__main__":
    main()
