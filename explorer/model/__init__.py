"""Pure data: GPU catalog, scenario (GPU + launch + workload + policy + seed)."""

from explorer.model.errors import InputError
from explorer.model.catalog import ArchSpec, GpuSpec, load_catalog, get_gpu, gpu_names
from explorer.model.scenario import Dim3, LaunchConfig, Scenario

__all__ = [
    "InputError",
    "ArchSpec",
    "GpuSpec",
    "load_catalog",
    "get_gpu",
    "gpu_names",
    "Dim3",
    "LaunchConfig",
    "Scenario",
]
