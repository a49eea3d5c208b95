"""The Ship, Captain and Crew widgets, shared by Barco and Navío (`ShipTray`: the places of
6-5-4 and the two crew or treasure dice). The two games differ only in configuration
(rules/ship.py), so their widgets are one package named for what they share, not for either."""
