"""normgrad.tiling.layer_norm_grad_beta: the same tiling as `normgrad tiling`
(both call the host tiling functions), its raw bytes, and its errors.

Extending: add (shape, dtype, tmp) cases to CASES.
"""

import json
import struct
import subprocess

import numpy as np
import pytest

import normgrad
from conftest import cli

CASES = [((2, 16, 64), "half", "min"), ((2, 16, 64), "float", "max"),
         ((1, 300, 96, 96), "float", "4096"), ((4, 7, 32), "half", "5000")]


@pytest.mark.parametrize("shape,dtype,tmp", CASES)
def test_same_as_the_command_line(shape, dtype, tmp):
    out = subprocess.run([cli(), "tiling", "--shape", ",".join(map(str, shape)), "--dtype", dtype,
                          "--tmp", tmp, "--json"], check=True, capture_output=True, text=True)
    want = json.loads(out.stdout)
    got = normgrad.tiling.layer_norm_grad_beta(shape, dtype, tmp=tmp if tmp in ("min", "max")
                                               else int(tmp))
    raw = got.pop("bytes")
    assert list(got) == list(want["tiling"])  # the documented names, in struct order
    assert got == want["tiling"]
    assert raw == struct.pack("<20I", *got.values())
    assert normgrad.tiling.layer_norm_grad_beta_tmp_size(shape, dtype) == (want["maxValue"],
                                                                           want["minValue"])


def test_dtype_spellings():
    a = normgrad.tiling.layer_norm_grad_beta((1, 8, 16), np.float16)
    b = normgrad.tiling.layer_norm_grad_beta((1, 8, 16), "float16")
    c = normgrad.tiling.layer_norm_grad_beta((1, 8, 16), "half")
    assert a == b == c and a["numberOfTmpBuf"] == 2


def test_errors_carry_the_tiling_functions_message():
    with pytest.raises(ValueError, match=r"^normgrad.tiling.layer_norm_grad_beta: "
                                         r"GetLayerNormGradBetaNDTilingInfo: stackBufferSize 10 "
                                         r"bytes \(2 floats\) is less than 2\*H = 128 floats"):
        normgrad.tiling.layer_norm_grad_beta((2, 16, 64), "half", tmp=10)
    with pytest.raises(ValueError, match=r"GetLayerNormGradBetaMaxMinTmpSize: srcShape "
                                         r"\[2, 0, 64, 64\] has S = 0"):
        normgrad.tiling.layer_norm_grad_beta((2, 0, 64), "float")
    with pytest.raises(ValueError, match=r"originalH"):
        normgrad.tiling.layer_norm_grad_beta((2, 4, 64, 32), "float")
    with pytest.raises(ValueError, match=r"shape \(2, 4\) has 2 dimensions"):
        normgrad.tiling.layer_norm_grad_beta((2, 4), "float")
    with pytest.raises(TypeError, match=r"dtype 'bfloat16' is not supported"):
        normgrad.tiling.layer_norm_grad_beta((2, 4, 16), "bfloat16")
    with pytest.raises(ValueError, match=r"tmp 'least' is not"):
        normgrad.tiling.layer_norm_grad_beta((2, 4, 16), "float", tmp="least")
