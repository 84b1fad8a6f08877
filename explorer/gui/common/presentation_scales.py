"""The scales presentation mode offers (1 = the window's own text size).

Here rather than in the lessons package because two features use them: presentation
mode (``lessons/presentation.py``) steps through them, and the headless renderer
(``render --scale``) validates its argument against the same list.
"""

SCALES = (1.0, 1.25, 1.5, 1.75, 2.0, 2.5)
DEFAULT_SCALE = 1.5
