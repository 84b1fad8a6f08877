"""The Okabe–Ito colour-blind-safe palette as named constants.

Okabe & Ito (2008), "Color Universal Design": eight colours that stay
distinguishable under the common colour-vision deficiencies. Every colour the
app uses to encode meaning (warp states, curves, limiters, errors) comes from
here, and meaning is never carried by colour alone (text or a marker goes with it).
"""

ORANGE = "#E69F00"
SKY_BLUE = "#56B4E9"
BLUISH_GREEN = "#009E73"
YELLOW = "#F0E442"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
REDDISH_PURPLE = "#CC79A7"
BLACK = "#000000"

OKABE_ITO = (ORANGE, SKY_BLUE, BLUISH_GREEN, YELLOW, BLUE, VERMILLION, REDDISH_PURPLE, BLACK)
