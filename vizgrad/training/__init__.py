"""Gradient descent on a student's own net, recorded step by step and played back.

``loop`` runs the training (``vizgrad.train``), ``record`` holds what it recorded and writes
it (JSON, the training player, the SVG summary, GIF and MP4), ``rate`` reads the learning
rate, ``net`` reads the net, ``page`` builds the player page, ``summary`` the SVG,
``film`` the animation, ``detail`` the step players of chosen steps, ``moons`` the gallery's
example.
"""

from .loop import train
from .record import Run, Training

__all__ = ["Run", "Training", "train"]
