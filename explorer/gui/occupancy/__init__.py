"""The Occupancy calculator tab: NVIDIA's occupancy rules, live, with the Nsight-style graphs and hints."""
