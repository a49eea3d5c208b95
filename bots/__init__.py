"""Opponents and the coach: pure functions of a rules state, like the rules themselves."""
