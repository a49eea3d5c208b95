"""Generala's own widget: the tray of five dice to hold or throw (`DiceTray`)."""
