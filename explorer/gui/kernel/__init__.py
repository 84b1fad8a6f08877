"""Your own kernel in the window: open a .cu, pick a kernel, fill its arguments, simulate it."""
