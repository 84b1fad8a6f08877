"""The core's validation messages in the interface language.

The core (``explorer.model``, ``explorer.occupancy``, ``explorer.gemm``) speaks
English so that the CLI, logs and tests have one stable wording; the window
shows those messages under the fields a user typed into. Each pattern below
recognises one message the core builds with an f-string and re-states it through
``QCoreApplication.translate`` with the same numbers, so a Russian lecture shows
"300 больше максимума 255" instead of the English sentence. A message no
pattern knows (a rare one, or a new one) is shown as the core wrote it: correct,
only untranslated. ``tests/gui/test_error_texts.py`` checks the patterns against
messages produced by the real validators, so a reworded core message is caught.
"""

from __future__ import annotations

import re
from PySide6.QtCore import QCoreApplication

_NUM = r"-?\d+"
_DECIMAL = r"-?\d+(?:\.\d+)?"  # a percentage field's value (87.5)
_QUOTED = r"(?P<q>['\"])(?P<value>.*)(?P=q)"


def _patterns() -> list[tuple[str, str]]:
    """(regex for the English message, the translated template with the regex's group names).

    The templates are literal ``translate`` calls so ``pyside6-lupdate`` collects
    them; they are looked up on each call so a language switch takes effect.
    """
    translate = QCoreApplication.translate

    return [
        # explorer.model.errors.require_int and the scenario's dimensions
        (_QUOTED + r" is not an integer", translate("CoreErrors", "'{value}' is not an integer")),
        (rf"(?P<value>{_DECIMAL}) is below the minimum of (?P<limit>{_NUM})",
         translate("CoreErrors", "{value} is below the minimum of {limit}")),
        (rf"(?P<value>{_NUM}) is above the maximum of (?P<limit>{_NUM}) \(limiter: warps; a block holds at most "
         rf"(?P<max>\d+) threads\)",
         translate("CoreErrors", "{value} is above the maximum of {limit} (limiter: warps; a block holds at most {max} threads)")),
        (rf"(?P<value>{_DECIMAL}) is above the maximum of (?P<limit>{_NUM})",
         translate("CoreErrors", "{value} is above the maximum of {limit}")),
        (_QUOTED + r" is not a dimension; write N or \[x, y, z\]",
         translate("CoreErrors", "'{value}' is not a dimension; write N or [x, y, z]")),
        (_QUOTED + r" is not a size; write N or x, y, z \(e\.g\. 16, 16\)",
         translate("CoreErrors", "'{value}' is not a size; write N or x, y, z (e.g. 16, 16)")),
        (_QUOTED + r" is not a number between 0 and 1", translate("CoreErrors", "'{value}' is not a number between 0 and 1")),
        (r"(?P<value>\S+) is outside the range 0 to 1", translate("CoreErrors", "{value} is outside the range 0 to 1")),
        # explorer.model.stream: the stream's gap (us) and NVML period (ms), decimals with their unit
        (r"(?P<value>\S+) is below the minimum of (?P<limit>\S+) us",
         translate("CoreErrors", "{value} is below the minimum of {limit} us")),
        (r"(?P<value>\S+) is above the maximum of (?P<limit>\S+) us",
         translate("CoreErrors", "{value} is above the maximum of {limit} us")),
        (r"(?P<value>\S+) is below the minimum of (?P<limit>\S+) ms",
         translate("CoreErrors", "{value} is below the minimum of {limit} ms")),
        (r"(?P<value>\S+) is above the maximum of (?P<limit>\S+) ms",
         translate("CoreErrors", "{value} is above the maximum of {limit} ms")),
        # explorer.model.stream and scenario_fields.parse_number: a decimal field's text
        (_QUOTED + r" is not a number", translate("CoreErrors", "'{value}' is not a number")),
        # explorer.gui.explore.scenario_fields.parse_percent: the L2 hit rate field, a percentage
        (_QUOTED + r" is not a percentage \(a number from 0 to 100\)",
         translate("CoreErrors", "'{value}' is not a percentage (a number from 0 to 100)")),
        # explorer.occupancy.calc.why_no_block_fits: what forbids a single block
        (r"(?P<threads>\d+) threads per block is above the limit of (?P<limit>\d+) \(limiter: warps\)",
         translate("CoreErrors", "{threads} threads per block is above the limit of {limit} (limiter: warps)")),
        (r"(?P<value>\d+) is above the limit of (?P<limit>\d+) \(limiter: registers\)",
         translate("CoreErrors", "{value} is above the limit of {limit} (limiter: registers)")),
        (r"(?P<regs>\d+) registers x (?P<threads>\d+) threads needs (?P<need>\d+) registers per block, above the "
         r"limit of (?P<limit>\d+) \(limiter: registers\)",
         translate("CoreErrors", "{regs} registers x {threads} threads needs {need} registers per block, above the limit of {limit} "
           "(limiter: registers)")),
        (r"the block needs (?P<need>\d+) bytes of shared memory \(static \+ dynamic \+ (?P<reserved>\d+) reserved\), "
         r"above the limit of (?P<limit>\d+) \(limiter: shared_memory\)",
         translate("CoreErrors", "the block needs {need} bytes of shared memory (static + dynamic + {reserved} reserved), above the "
           "limit of {limit} (limiter: shared_memory)")),
        (r"(?P<value>\d+) barriers per block leave no block slot \(limiter: barriers\)",
         translate("CoreErrors", "{value} barriers per block leave no block slot (limiter: barriers)")),
        # explorer.gemm: tile sizes, shared memory and registers of a CTA
        (_QUOTED + r" is not a size like (?P<example>\S+) \((?P<count>\d+) numbers\)",
         translate("CoreErrors", "'{value}' is not a size like {example} ({count} numbers)")),
        (_QUOTED + r" is not a size like (?P<example>\S+)", translate("CoreErrors", "'{value}' is not a size like {example}")),
        (r"(?P<name>B[MNK]) = (?P<size>\d+) is not a multiple of (?P<unit>\d+), the (?P<shape>\S+) (?P<dtype>\S+) "
         r"MMA shape",
         translate("CoreErrors", "{name} = {size} is not a multiple of {unit}, the {shape} {dtype} MMA shape")),
        (r"(?P<tile>\S+) with (?P<stages>\d+) stage\(s\) needs (?P<need>\d+) B of shared memory per block "
         r"\((?P<formula>[^)]*\)[^)]*)\), above the limit of (?P<limit>\d+) B on (?P<gpu>\S+)",
         translate("CoreErrors", "{tile} with {stages} stage(s) needs {need} B of shared memory per block ({formula}), above the limit "
           "of {limit} B on {gpu}")),
        (r"a (?P<warp_tile>\S+) warp tile needs about (?P<regs>\d+) registers per thread \((?P<acc>\d+) accumulators "
         r"\+ (?P<frag>\d+) fragment \+ (?P<other>\d+) other\), above the limit of (?P<limit>\d+); use more warps or "
         r"a smaller tile",
         translate("CoreErrors", "a {warp_tile} warp tile needs about {regs} registers per thread ({acc} accumulators + {frag} fragment + "
           "{other} other), above the limit of {limit}; use more warps or a smaller tile")),
        (r"(?P<warps>\d+) warps x 32 threads x (?P<regs>\d+) registers need (?P<need>\d+) registers per CTA, above "
         r"the limit of (?P<limit>\d+); use fewer warps or a smaller tile",
         translate("CoreErrors", "{warps} warps x 32 threads x {regs} registers need {need} registers per CTA, above the limit of "
           "{limit}; use fewer warps or a smaller tile")),
        (r"(?P<dtype>\S+) has no Tensor Core support on (?P<gpu>\S+) \(CC (?P<cc>[\d.]+)\); choose one of "
         r"(?P<choices>.+)",
         translate("CoreErrors", "{dtype} has no Tensor Core support on {gpu} (CC {cc}); choose one of {choices}")),
        # explorer.gemm: the main-loop path and its knobs (wgmma: schedule, cluster, A source, stages, registers;
        # mma.sync: warps and the warp tile)
        (r"(?P<dtype>\S+) runs FFMA on the CUDA cores \(path simt\), not on Tensor Cores; choose (?P<choices>.+) "
         r"for an MMA path",
         translate("CoreErrors", "{dtype} runs FFMA on the CUDA cores (path simt), not on Tensor Cores; choose {choices} "
                   "for an MMA path")),
        (r"simt is the FP32 \(FFMA\) path; (?P<dtype>\S+) runs on Tensor Cores: choose mma\.sync or wgmma",
         translate("CoreErrors", "simt is the FP32 (FFMA) path; {dtype} runs on Tensor Cores: choose mma.sync or wgmma")),
        (r"simt is the FP32 \(FFMA\) path; (?P<dtype>\S+) runs on Tensor Cores: choose mma\.sync",
         translate("CoreErrors", "simt is the FP32 (FFMA) path; {dtype} runs on Tensor Cores: choose mma.sync")),
        (r"wgmma needs compute capability (?P<ccs>[\d.]+(?: or [\d.]+)*) \(Hopper, Blackwell B200\); (?P<gpu>\S+) is "
         r"CC (?P<cc>[\d.]+): choose mma\.sync",
         translate("CoreErrors", "wgmma needs compute capability {ccs} (Hopper, Blackwell B200); {gpu} is CC {cc}: "
                   "choose mma.sync")),
        (r"(?P<cluster>\d+x\d+) = (?P<ctas>\d+) CTAs, above the portable cluster limit of (?P<limit>\d+)",
         translate("CoreErrors", "{cluster} = {ctas} CTAs, above the portable cluster limit of {limit}")),
        (r"(?P<instr>\S+) kernels have one MMA warp and 4 epilogue warps; cooperative and pingpong are Hopper "
         r"\(CC 9\.0\) schedules",
         translate("CoreErrors", "{instr} kernels have one MMA warp and 4 epilogue warps; cooperative and pingpong are "
                   "Hopper (CC 9.0) schedules")),
        (r"(?P<instr>\S+) reads A from shared or Tensor Memory, not from registers",
         translate("CoreErrors", "{instr} reads A from shared or Tensor Memory, not from registers")),
        (r"BM = (?P<bm>\d+) is not a multiple of (?P<unit>\d+): the cooperative schedule splits it between "
         r"(?P<consumers>\d+) consumer warpgroups of (?P<rows>\d+)-row wgmmas",
         translate("CoreErrors", "BM = {bm} is not a multiple of {unit}: the cooperative schedule splits it between "
                   "{consumers} consumer warpgroups of {rows}-row wgmmas")),
        (r"(?P<tile>\S+) needs (?P<stage>\d+) B per stage; fewer than the 2 stages a TMA pipeline needs fit the "
         r"(?P<limit>\d+) B of shared memory per block on (?P<gpu>\S+) \(with (?P<epilogue>\d+) B for the epilogue\)",
         translate("CoreErrors", "{tile} needs {stage} B per stage; fewer than the 2 stages a TMA pipeline needs fit the "
                   "{limit} B of shared memory per block on {gpu} (with {epilogue} B for the epilogue)")),
        (r"(?P<stages>\d+) stages of (?P<tile>\S+) need (?P<need>\d+) B of shared memory per block "
         r"\((?P<n>\d+) x \((?P<a>\d+) \+ (?P<b>\d+) \+ barriers\) \+ (?P<epilogue>\d+) B epilogue\), above the limit "
         r"of (?P<limit>\d+) B on (?P<gpu>\S+)",
         translate("CoreErrors", "{stages} stages of {tile} need {need} B of shared memory per block ({n} x ({a} + {b} + "
                   "barriers) + {epilogue} B epilogue), above the limit of {limit} B on {gpu}")),
        (r"a (?P<tile>\S+) consumer tile needs about (?P<regs>\d+) registers per consumer thread \((?P<acc>\d+) "
         r"accumulators \+ (?P<frag>\d+) A fragment \+ (?P<other>\d+) other\), above the setmaxnreg budget of "
         r"(?P<limit>\d+); use a smaller tile or the cooperative schedule",
         translate("CoreErrors", "a {tile} consumer tile needs about {regs} registers per consumer thread ({acc} "
                   "accumulators + {frag} A fragment + {other} other), above the setmaxnreg budget of {limit}; use a "
                   "smaller tile or the cooperative schedule")),
        (r"a (?P<tile>\S+) consumer tile needs about (?P<regs>\d+) registers per consumer thread \((?P<acc>\d+) "
         r"accumulators \+ (?P<frag>\d+) A fragment \+ (?P<other>\d+) other\), above the setmaxnreg budget of "
         r"(?P<limit>\d+); use a smaller tile",
         translate("CoreErrors", "a {tile} consumer tile needs about {regs} registers per consumer thread ({acc} "
                   "accumulators + {frag} A fragment + {other} other), above the setmaxnreg budget of {limit}; use a "
                   "smaller tile")),
        (r"(?P<tile>\d+x\d+) FP32 accumulators need (?P<cols>\d+) Tensor-Memory columns, above the (?P<limit>\d+) of "
         r"an SM",
         translate("CoreErrors", "{tile} FP32 accumulators need {cols} Tensor-Memory columns, above the {limit} of an SM")),
        (r"(?P<wt>\d+x\d+) does not divide the (?P<tile>\d+x\d+) CTA tile",
         translate("CoreErrors", "{wt} does not divide the {tile} CTA tile")),
        (r"(?P<wt>\d+x\d+) is not multiples of (?P<unit>\d+x\d+) \((?P<shape>\S+)\)",
         translate("CoreErrors", "{wt} is not multiples of {unit} ({shape})")),
        (r"(?P<wt>\d+x\d+) is not a multiple of 32 outputs",
         translate("CoreErrors", "{wt} is not a multiple of 32 outputs")),
        (r"(?P<wt>\d+x\d+) warp tiles make (?P<n>\d+) warps per (?P<tile>\d+x\d+) tile, not the (?P<asked>\S+) asked for",
         translate("CoreErrors", "{wt} warp tiles make {n} warps per {tile} tile, not the {asked} asked for")),
        (r"(?P<wt>\d+x\d+) makes (?P<n>\d+) warps per CTA, above the limit of (?P<limit>\d+) \((?P<threads>\d+) "
         r"threads\)",
         translate("CoreErrors", "{wt} makes {n} warps per CTA, above the limit of {limit} ({threads} threads)")),
        (r"(?P<n>\d+) warps cannot split the (?P<tile>\d+x\d+) tile into warp tiles that are multiples of "
         r"(?P<unit>\d+x\d+); try a power of two up to (?P<max>\d+)",
         translate("CoreErrors", "{n} warps cannot split the {tile} tile into warp tiles that are multiples of {unit}; "
                   "try a power of two up to {max}")),
        (r"(?P<n>\d+) warps cannot split the (?P<tile>\d+x\d+) tile into warp tiles; try a power of two up to "
         r"(?P<max>\d+)",
         translate("CoreErrors", "{n} warps cannot split the {tile} tile into warp tiles; try a power of two up to {max}")),
        (r"Q, K and V blocks of (?P<bq>\d+), (?P<bkv>\d+) and \d+ rows x (?P<d>\d+) x (?P<b>\d+) B need "
         r"(?P<need>\d+) B of shared memory per block, above the limit of (?P<limit>\d+) B on (?P<gpu>\S+)",
         translate("CoreErrors", "Q, K and V blocks of {bq}, {bkv} and {bkv} rows x {d} x {b} B need {need} B of shared memory per "
           "block, above the limit of {limit} B on {gpu}")),
        # explorer.sass.execute.arguments: a kernel argument against its parameter's type (the kernel form)
        (r"(?P<value>.+): the parameter is (?P<type>.+), an integer type; give an integer",
         translate("CoreErrors", "{value}: the parameter is {type}, an integer type; give an integer")),
        (rf"(?P<value>{_NUM}) is outside (?P<type>.+)'s range \[(?P<lo>{_NUM}), (?P<hi>{_NUM})\]",
         translate("CoreErrors", "{value} is outside {type}'s range [{lo}, {hi}]")),
        (r"(?P<value>.+): the parameter is (?P<type>.+); give true or false",
         translate("CoreErrors", "{value}: the parameter is {type}; give true or false")),
    ]


def core_message(message: str | None) -> str | None:
    """``message`` (an ``InputError.message``) in the interface language; unknown messages unchanged."""
    return translate_by_patterns(message, _patterns())


def translate_by_patterns(message: str | None, patterns, translate_value=None) -> str | None:
    """``message`` re-stated by the first (regex, template) of ``patterns`` that matches all of it.

    ``translate_value(group, text)`` may translate a matched part (a name the core
    puts into its sentence); a message no pattern matches comes back unchanged.
    """
    if not message:
        return message
    for rx, template in patterns:
        m = re.fullmatch(rx, message)  # re caches the compiled patterns
        if m:
            values = {k: v for k, v in m.groupdict().items() if k != "q"}
            if translate_value is not None:
                values = {k: ("" if v is None else translate_value(k, v)) for k, v in values.items()}
            try:
                return template.format(**values)
            except (KeyError, IndexError, ValueError):  # a translator dropped or renamed a placeholder
                return message
    return message


def core_error(field: str, message: str) -> str:
    """``field: message`` with the message translated (the field is a scenario key, kept as is)."""
    text = core_message(message) or ""
    return f"{field}: {text}" if field else text
