"""The core's validation errors: templates an ``InputError`` is written from, in English for the CLI, translated in the window.

Every validator raises ``InputError(field, ERRORS(code, **figures))`` where it used an
f-string: the message is a :class:`~explorer.texts.message.Message`, so it *is* the English
line the CLI prints (``field: message``, exit code 2) and also the record (code, figures)
that the window renders through its translator (``explorer.gui.common.error_texts``,
which used to recognise each English sentence with a regular expression and re-state it).
The templates are the English the core has always written, character for character: each
figure's format spec is the one its f-string used. Values the core quotes are strings as
the core shows them (``shown(value)``); see :func:`quoting` for the sentences that quote
the user's text.
"""

from __future__ import annotations

from explorer.texts import QT_TRANSLATE_NOOP
from explorer.texts.message import Catalog, Message


ERRORS = Catalog("CoreErrors", {
    # explorer.model.errors.require_int, explorer.model.scenario (a launch's dimensions), explorer.gui's parsers
    "not_integer": QT_TRANSLATE_NOOP("CoreErrors", "'{value}' is not an integer"),
    "not_integer_shown": QT_TRANSLATE_NOOP("CoreErrors", "{value} is not an integer"),
    "below_minimum": QT_TRANSLATE_NOOP("CoreErrors", "{value} is below the minimum of {limit}"),
    "above_maximum": QT_TRANSLATE_NOOP("CoreErrors", "{value} is above the maximum of {limit}"),
    "above_maximum_block": QT_TRANSLATE_NOOP("CoreErrors", "{value} is above the maximum of {limit} (limiter: warps; "
                                                           "a block holds at most {max} threads)"),
    "not_dimension": QT_TRANSLATE_NOOP("CoreErrors", "'{value}' is not a dimension; write N or [x, y, z]"),
    "not_dimension_shown": QT_TRANSLATE_NOOP("CoreErrors", "{value} is not a dimension; write N or [x, y, z]"),
    "not_size": QT_TRANSLATE_NOOP("CoreErrors", "'{value}' is not a size; write N or x, y, z (e.g. 16, 16)"),
    "not_size_shown": QT_TRANSLATE_NOOP("CoreErrors", "{value} is not a size; write N or x, y, z (e.g. 16, 16)"),
    # explorer.model.workload: a hit rate
    "not_rate": QT_TRANSLATE_NOOP("CoreErrors", "'{value}' is not a number between 0 and 1"),
    "not_rate_shown": QT_TRANSLATE_NOOP("CoreErrors", "{value} is not a number between 0 and 1"),
    "outside_rate": QT_TRANSLATE_NOOP("CoreErrors", "{value} is outside the range 0 to 1"),
    # explorer.model.stream: the stream's gap (us) and NVML period (ms), decimals with their unit
    "below_minimum_us": QT_TRANSLATE_NOOP("CoreErrors", "{value} is below the minimum of {limit} us"),
    "above_maximum_us": QT_TRANSLATE_NOOP("CoreErrors", "{value} is above the maximum of {limit} us"),
    "below_minimum_ms": QT_TRANSLATE_NOOP("CoreErrors", "{value} is below the minimum of {limit} ms"),
    "above_maximum_ms": QT_TRANSLATE_NOOP("CoreErrors", "{value} is above the maximum of {limit} ms"),
    # explorer.model.stream and explorer.gui.explore.scenario_fields: a decimal field's text, a percentage
    "not_number": QT_TRANSLATE_NOOP("CoreErrors", "'{value}' is not a number"),
    "not_number_shown": QT_TRANSLATE_NOOP("CoreErrors", "{value} is not a number"),
    "not_percentage": QT_TRANSLATE_NOOP("CoreErrors", "'{value}' is not a percentage (a number from 0 to 100)"),
    "not_percentage_shown": QT_TRANSLATE_NOOP("CoreErrors", "{value} is not a percentage (a number from 0 to 100)"),
    # explorer.occupancy.calc.no_block_reasons: what forbids a single block
    "threads_above_limit": QT_TRANSLATE_NOOP("CoreErrors", "{threads} threads per block is above the limit of {limit} "
                                                           "(limiter: warps)"),
    "registers_above_limit": QT_TRANSLATE_NOOP("CoreErrors", "{value} is above the limit of {limit} (limiter: "
                                                             "registers)"),
    "registers_per_block": QT_TRANSLATE_NOOP("CoreErrors", "{regs} registers x {threads} threads needs {need} "
                                                           "registers per block, above the limit of {limit} "
                                                           "(limiter: registers)"),
    "shared_per_block": QT_TRANSLATE_NOOP("CoreErrors", "the block needs {need} bytes of shared memory (static + "
                                                        "dynamic + {reserved} reserved), above the limit of {limit} "
                                                        "(limiter: shared_memory)"),
    "barriers_no_slot": QT_TRANSLATE_NOOP("CoreErrors", "{value} barriers per block leave no block slot (limiter: "
                                                        "barriers)"),
    # explorer.gemm: tile sizes, shared memory and registers of a CTA
    "not_size_like_count": QT_TRANSLATE_NOOP("CoreErrors", "'{value}' is not a size like {example} ({count} "
                                                           "numbers)"),
    "not_size_like_count_shown": QT_TRANSLATE_NOOP("CoreErrors", "{value} is not a size like {example} ({count} "
                                                                 "numbers)"),
    "not_size_like": QT_TRANSLATE_NOOP("CoreErrors", "{value} is not a size like {example}"),  # a number, not text
    "not_mma_multiple": QT_TRANSLATE_NOOP("CoreErrors", "{name} = {size} is not a multiple of {unit}, the {shape} "
                                                        "{dtype} MMA shape"),
    "tile_shared": QT_TRANSLATE_NOOP("CoreErrors", "{tile} with {stages} stage(s) needs {need} B of shared memory "
                                                   "per block ({formula}), above the limit of {limit} B on {gpu}"),
    "warp_tile_registers": QT_TRANSLATE_NOOP("CoreErrors", "a {warp_tile} warp tile needs about {regs} registers per "
                                                           "thread ({acc} accumulators + {frag} fragment + {other} "
                                                           "other), above the limit of {limit}; use more warps or a "
                                                           "smaller tile"),
    "cta_registers": QT_TRANSLATE_NOOP("CoreErrors", "{warps} warps x 32 threads x {regs} registers need {need} "
                                                     "registers per CTA, above the limit of {limit}; use fewer warps "
                                                     "or a smaller tile"),
    "no_tensor_core": QT_TRANSLATE_NOOP("CoreErrors", "{dtype} has no Tensor Core support on {gpu} (CC {cc}); "
                                                      "choose one of {choices}"),
    # explorer.gemm: the main-loop path and its knobs (wgmma: schedule, cluster, A source, stages, registers;
    # mma.sync: warps and the warp tile)
    "path_ffma": QT_TRANSLATE_NOOP("CoreErrors", "{dtype} runs FFMA on the CUDA cores (path simt), not on Tensor "
                                                 "Cores; choose {choices} for an MMA path"),
    "path_simt_or_wgmma": QT_TRANSLATE_NOOP("CoreErrors", "simt is the FP32 (FFMA) path; {dtype} runs on Tensor "
                                                          "Cores: choose mma.sync or wgmma"),
    "path_simt": QT_TRANSLATE_NOOP("CoreErrors", "simt is the FP32 (FFMA) path; {dtype} runs on Tensor Cores: "
                                                 "choose mma.sync"),
    "path_wgmma_cc": QT_TRANSLATE_NOOP("CoreErrors", "wgmma needs compute capability {ccs} (Hopper, Blackwell "
                                                     "B200); {gpu} is CC {cc}: choose mma.sync"),
    "cluster_above_limit": QT_TRANSLATE_NOOP("CoreErrors", "{cluster} = {ctas} CTAs, above the portable cluster "
                                                           "limit of {limit}"),
    "schedule_not_hopper": QT_TRANSLATE_NOOP("CoreErrors", "{instr} kernels have one MMA warp and 4 epilogue warps; "
                                                           "cooperative and pingpong are Hopper (CC 9.0) schedules"),
    "a_source_registers": QT_TRANSLATE_NOOP("CoreErrors", "{instr} reads A from shared or Tensor Memory, not from "
                                                          "registers"),
    "cooperative_bm": QT_TRANSLATE_NOOP("CoreErrors", "BM = {bm} is not a multiple of {unit}: the cooperative "
                                                      "schedule splits it between {consumers} consumer warpgroups of "
                                                      "{rows}-row wgmmas"),
    "stage_too_big": QT_TRANSLATE_NOOP("CoreErrors", "{tile} needs {stage} B per stage; fewer than the 2 stages a TMA "
                                                     "pipeline needs fit the {limit} B of shared memory per block on "
                                                     "{gpu} (with {epilogue} B for the epilogue)"),
    "stages_shared": QT_TRANSLATE_NOOP("CoreErrors", "{stages} stages of {tile} need {need} B of shared memory per "
                                                     "block ({n} x ({a} + {b} + barriers) + {epilogue} B epilogue), "
                                                     "above the limit of {limit} B on {gpu}"),
    "consumer_registers_pingpong": QT_TRANSLATE_NOOP("CoreErrors", "a {tile} consumer tile needs about {regs} "
                                                                   "registers per consumer thread ({acc} accumulators "
                                                                   "+ {frag} A fragment + {other} other), above the "
                                                                   "setmaxnreg budget of {limit}; use a smaller tile "
                                                                   "or the cooperative schedule"),
    "consumer_registers": QT_TRANSLATE_NOOP("CoreErrors", "a {tile} consumer tile needs about {regs} registers per "
                                                          "consumer thread ({acc} accumulators + {frag} A fragment + "
                                                          "{other} other), above the setmaxnreg budget of {limit}; "
                                                          "use a smaller tile"),
    "tmem_columns": QT_TRANSLATE_NOOP("CoreErrors", "{tile} FP32 accumulators need {cols} Tensor-Memory columns, "
                                                    "above the {limit} of an SM"),
    "warp_tile_divides": QT_TRANSLATE_NOOP("CoreErrors", "{wt} does not divide the {tile} CTA tile"),
    "warp_tile_mma": QT_TRANSLATE_NOOP("CoreErrors", "{wt} is not multiples of {unit} ({shape})"),
    "warp_tile_simt": QT_TRANSLATE_NOOP("CoreErrors", "{wt} is not a multiple of 32 outputs"),
    "warp_tile_warps": QT_TRANSLATE_NOOP("CoreErrors", "{wt} warp tiles make {n} warps per {tile} tile, not the "
                                                       "{asked} asked for"),
    "warp_tile_warps_limit": QT_TRANSLATE_NOOP("CoreErrors", "{wt} makes {n} warps per CTA, above the limit of "
                                                             "{limit} ({threads} threads)"),
    "warps_split_mma": QT_TRANSLATE_NOOP("CoreErrors", "{n} warps cannot split the {tile} tile into warp tiles that "
                                                       "are multiples of {unit}; try a power of two up to {max}"),
    "warps_split": QT_TRANSLATE_NOOP("CoreErrors", "{n} warps cannot split the {tile} tile into warp tiles; try a "
                                                   "power of two up to {max}"),
    "attention_blocks": QT_TRANSLATE_NOOP("CoreErrors", "Q, K and V blocks of {bq}, {bkv} and {bkv} rows x {d} x {b} "
                                                        "B need {need} B of shared memory per block, above the limit "
                                                        "of {limit} B on {gpu}"),
    # explorer.sass.execute.arguments: a kernel argument against its parameter's type (the kernel form)
    "arg_not_integer": QT_TRANSLATE_NOOP("CoreErrors", "{value}: the parameter is {type}, an integer type; give an "
                                                       "integer"),
    "arg_out_of_range": QT_TRANSLATE_NOOP("CoreErrors", "{value} is outside {type}'s range [{lo}, {hi}]"),
    "arg_not_bool": QT_TRANSLATE_NOOP("CoreErrors", "{value}: the parameter is {type}; give true or false"),
}, specs={
    # the f-strings' own formats: "{value}" (str() of an int or a float), the stream's "{value:g}"
    "below_minimum": {"value": ""}, "above_maximum": {"value": ""}, "outside_rate": {"value": ""},
    "below_minimum_us": {"value": "g", "limit": "g"}, "above_maximum_us": {"value": "g", "limit": "g"},
    "below_minimum_ms": {"value": "g", "limit": "g"}, "above_maximum_ms": {"value": "g", "limit": "g"},
})


def quoting(code: str, value: str, **figures) -> Message:
    """``ERRORS(code, ...)`` for a sentence that quotes the user's text; ``value`` is that text as the core shows it
    (``shown(v)``, ``repr(v)``).

    The template quotes ``'{value}'`` (the Russian «{value}»), so a single-quoted ``value`` ('12a', the usual
    case) goes in without its quotes; anything else (a list, a text with an apostrophe that repr put in double
    quotes, a value cut short) goes into the ``<code>_shown`` template as shown. Either way the English is the
    core's ``f"{shown(v)} ..."`` exactly.
    """
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return ERRORS(code, value=value[1:-1], **figures)
    return ERRORS(code + "_shown", value=value, **figures)
