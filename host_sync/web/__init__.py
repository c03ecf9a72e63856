"""The live results page (`host-sync web`): rankings, travellers and scorecards of the current
session, pushed to the open pages within a second of every sync, under the embargo
(live.py) and the director's hold. It reads the event database and the scoring and reports
rooms; only the command line imports it."""
