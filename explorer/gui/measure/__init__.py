"""The real GPU in the window: Run on GPU, measurements over the simulation, calibration, .cu files."""
