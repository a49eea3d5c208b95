"""Batalla de Piratas' own widgets: the board of two fleets (`Board`) and the roster of each
side's pieces (`Roster`, which reads the board's keys and letters)."""
