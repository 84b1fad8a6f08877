"""Lecture use: guided lessons, the spotlight and laser overlay, presentation mode."""
