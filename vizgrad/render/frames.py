"""Moved to :mod:`vizgrad.render.write.picture.frames`; this path keeps working."""

from .write.picture.frames import (ANIMATION_FORMATS, DURATIONS, FINAL_HOLD, FRAME_FORMATS, animate,
                                  durations, find_ffmpeg, frames, picture_bytes)

__all__ = ["ANIMATION_FORMATS", "DURATIONS", "FINAL_HOLD", "FRAME_FORMATS", "animate", "durations",
           "find_ffmpeg", "frames", "picture_bytes"]
