"""A stand-in for nvidia-ml-py's ``pynvml`` (tests only, put on PYTHONPATH beside the fake libcuda).

Enough for explorer.gpu.microbench's NVML group: utilization.gpu reads FAKE_NVML_GPU (default
37) and the driver version FAKE_NVML_DRIVER (default 580.0-fake). Calls the microbenchmarks do
not make are absent, as on an old nvidia-ml-py.
"""

import os

NVML_CLOCK_SM = 1


class NVMLError(Exception):
    pass


def nvmlInit():
    pass


def nvmlShutdown():
    pass


def nvmlSystemGetDriverVersion():
    return os.environ.get("FAKE_NVML_DRIVER", "580.0-fake")


def nvmlDeviceGetCount():
    return 1


def nvmlDeviceGetHandleByPciBusId(bus):
    return "fake-handle"


def nvmlDeviceGetHandleByUUID(uuid):
    return "fake-handle"


def nvmlDeviceGetHandleByIndex(index):
    return "fake-handle"


class _Utilization:
    def __init__(self, gpu: int):
        self.gpu = gpu
        self.memory = 0


def nvmlDeviceGetUtilizationRates(handle):
    return _Utilization(int(os.environ.get("FAKE_NVML_GPU", "37")))
